import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { entityQuery, type PortableType } from '../api/pcd';
import { urlBase } from '../api/client';
import { DashboardPage } from '../pages/dashboard/DashboardPage';
import { LoginPage } from '../pages/auth/LoginPage';
import { SetupPage } from '../pages/auth/SetupPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RequireSession } from './RequireSession';
import { Shell } from './Shell';

// The dashboard is the first page and ships in the main bundle; every other page is its own chunk,
// loaded when it is first visited (`lazy`), so the first page stays small.
function pages(queryClient: QueryClient): RouteObject[] {
  return [
    { index: true, element: <DashboardPage /> },
    { path: 'instances', lazy: async () => ({ Component: (await import('../pages/instances/InstancesPage')).InstancesPage }) },
    { path: 'instances/:id', lazy: async () => ({ Component: (await import('../pages/instances/InstancePage')).InstancePage }) },
    { path: 'databases', lazy: async () => ({ Component: (await import('../pages/databases/DatabasesPage')).DatabasesPage }) },
    { path: 'databases/:id', lazy: async () => ({ Component: (await import('../pages/databases/DatabasePage')).DatabasePage }) },
    { path: 'sync', lazy: async () => ({ Component: (await import('../pages/sync/SyncPage')).SyncPage }) },
    { path: 'sync/previews/:id', lazy: async () => ({ Component: (await import('../pages/sync/PreviewPage')).PreviewPage }) },
    { path: 'sync/history', lazy: async () => ({ Component: (await import('../pages/sync/SyncHistoryPage')).SyncHistoryPage }) },
    { path: 'rollouts', lazy: async () => ({ Component: (await import('../pages/rollouts/RolloutsPage')).RolloutsPage }) },
    { path: 'rollouts/new', lazy: async () => ({ Component: (await import('../pages/rollouts/StartRolloutPage')).StartRolloutPage }) },
    { path: 'rollouts/:id', lazy: async () => ({ Component: (await import('../pages/rollouts/RolloutPage')).RolloutPage }) },
    { path: 'drift', lazy: async () => ({ Component: (await import('../pages/drift/DriftPage')).DriftPage }) },
    { path: 'health', lazy: async () => ({ Component: (await import('../pages/health/HealthPage')).HealthPage }) },
    { path: 'health/:instanceId', lazy: async () => ({ Component: (await import('../pages/health/HealthInstancePage')).HealthInstancePage }) },
    { path: 'timeline', lazy: async () => ({ Component: (await import('../pages/timeline/TimelinePage')).TimelinePage }) },
    { path: 'notifications', lazy: async () => ({ Component: (await import('../pages/notifications/NotificationsPage')).NotificationsPage }) },
    { path: 'settings', lazy: async () => ({ Component: (await import('../pages/settings/SettingsPage')).SettingsPage }) },
    { path: 'configuration', lazy: async () => ({ Component: (await import('../pages/configuration/ConfigurationPage')).ConfigurationPage }) },
    {
      path: 'configuration/:databaseId/:portableType/:name',
      // The entity (resolved, with lineage: what the page shows first) is asked for as the navigation
      // starts, beside the page's chunk, instead of once the chunk has loaded and mounted.
      loader: ({ params }) => {
        void queryClient.prefetchQuery(entityQuery(Number(params.databaseId), params.portableType as PortableType, params.name ?? '', 'resolved', true));
        return null;
      },
      lazy: async () => ({ Component: (await import('../pages/configuration/EntityPage')).EntityPage }),
    },
    { path: 'graph', lazy: async () => ({ Component: (await import('../pages/graph/GraphPage')).GraphPage }) },
    { path: 'goals', lazy: async () => ({ Component: (await import('../pages/goals/GoalsPage')).GoalsPage }) },
    { path: 'compare', lazy: async () => ({ Component: (await import('../pages/compare/ComparePage')).ComparePage }) },
    { path: 'release-tester', lazy: async () => ({ Component: (await import('../pages/release-tester/ReleaseTesterPage')).ReleaseTesterPage }) },
    { path: 'guides', lazy: async () => ({ Component: (await import('../pages/guides/GuidesPage')).GuidesPage }) },
    { path: 'snapshots', lazy: async () => ({ Component: (await import('../pages/snapshots/SnapshotsPage')).SnapshotsPage }) },
    { path: 'parity', lazy: async () => ({ Component: (await import('../pages/parity/ParityPage')).ParityPage }) },
    { path: '*', element: <NotFoundPage /> },
  ];
}

function routes(queryClient: QueryClient): RouteObject[] {
  return [
    { path: '/setup', element: <SetupPage /> },
    { path: '/login', element: <LoginPage /> },
    {
      element: (
        <RequireSession>
          <Shell />
        </RequireSession>
      ),
      children: pages(queryClient),
    },
  ];
}

/** Under a URL base the console's root is `<base>/` (the path the server serves it at and the session cookie's path). */
export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter(routes(queryClient), { basename: `${urlBase()}/` });
}
