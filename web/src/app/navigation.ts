/**
 * The console's pages in navigation order, in two groups: the operator's daily work, and the
 * configuration workbench. A page is added here and in routes.tsx.
 */
export interface NavigationItem {
  path: string;
  label: string;
}

export const NAVIGATION_GROUPS: readonly { label: string; items: readonly NavigationItem[] }[] = [
  {
    label: 'Operate',
    items: [
      { path: '/', label: 'Dashboard' },
      { path: '/instances', label: 'Instances' },
      { path: '/databases', label: 'Databases' },
      { path: '/sync', label: 'Sync' },
      { path: '/rollouts', label: 'Rollouts' },
      { path: '/drift', label: 'Drift' },
      { path: '/health', label: 'Health' },
      { path: '/timeline', label: 'Timeline' },
      { path: '/notifications', label: 'Notifications' },
      { path: '/settings', label: 'Settings' },
    ],
  },
  {
    label: 'Configure',
    items: [
      { path: '/configuration', label: 'Configuration' },
      { path: '/graph', label: 'Graph' },
      { path: '/goals', label: 'Goals' },
      { path: '/compare', label: 'Compare' },
      { path: '/release-tester', label: 'Release tester' },
      { path: '/guides', label: 'Guides' },
      { path: '/snapshots', label: 'Snapshots' },
      { path: '/parity', label: 'Parity' },
    ],
  },
];

export const NAVIGATION: readonly NavigationItem[] = NAVIGATION_GROUPS.flatMap((group) => group.items);
