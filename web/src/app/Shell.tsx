import { ActionIcon, AppShell, Box, Burger, Button, Group, NavLink, ScrollArea, Text, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useAuthStatus, useLogout } from '../api/auth';
import { PageLoader } from '../components/PageLoader';
import { NAVIGATION_GROUPS } from './navigation';

function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  const next = scheme === 'dark' ? 'light' : 'dark';
  const label = `Switch to the ${next} theme`;
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => setColorScheme(next)}>
        <span aria-hidden>{scheme === 'dark' ? '☀' : '☾'}</span>
      </ActionIcon>
    </Tooltip>
  );
}

function SignOut() {
  const status = useAuthStatus();
  const logout = useLogout();
  if (status.data?.method !== 'session') return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" visibleFrom="xs">
        {status.data.username}
      </Text>
      <Button variant="default" size="xs" loading={logout.isPending} onClick={() => logout.mutate()}>
        Sign out
      </Button>
    </Group>
  );
}

/** The console's frame: header (menu at phone width, theme, sign-out), navigation, and the page. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  // At phone width the closed menu slides out of view; hidden, its links leave the tab order too.
  const phone = useMediaQuery('(max-width: 48em)', false);
  const navigationHidden = phone && !opened;
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Text fw={700} size="lg" component="span">
              arrgo
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ThemeToggle />
            <SignOut />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main" style={navigationHidden ? { visibility: 'hidden' } : undefined}>
        <ScrollArea>
          {NAVIGATION_GROUPS.map((group) => (
            <Box key={group.label} mb="xs">
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4} aria-hidden>
                {group.label}
              </Text>
              {group.items.map((item) => (
                <NavLink
                  key={item.path}
                  component={RouterNavLink}
                  to={item.path}
                  end={item.path === '/'}
                  label={item.label}
                  active={item.path === '/' ? location.pathname === '/' : location.pathname.startsWith(item.path)}
                  onClick={close}
                />
              ))}
            </Box>
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
