/** The console's pages in navigation order. A page is added here and in routes.tsx. */
export const NAVIGATION = [
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
] as const;
