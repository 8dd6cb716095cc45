import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { authStatusQuery } from '../api/auth';
import { urlBase } from '../api/client';
import { fleetOverviewQuery } from '../api/fleet';
import { createQueryClient } from '../api/query-client';
import { createRouter } from './routes';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

const queryClient = createQueryClient();
const router = createRouter(queryClient);

// The first page's reads start as soon as the script runs and side by side, instead of one after
// the other as the session check and then the page mount. A prefetch that is refused (no session
// yet) is simply not used.
void queryClient.prefetchQuery(authStatusQuery);
if (isDashboardPath(window.location.pathname)) void queryClient.prefetchQuery(fleetOverviewQuery);

function isDashboardPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '') === urlBase();
}

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
