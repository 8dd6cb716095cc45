import { createTheme, localStorageColorSchemeManager, Modal, Notification, type CSSVariablesResolver } from '@mantine/core';

// Dark by default, as the *arr apps. Shades picked for WCAG AA contrast of white text on filled
// controls (the axe scan of every page in the browser tests holds it).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  defaultRadius: 'sm',
  // Icon-only close buttons get a name (the library leaves them unnamed).
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
  },
});

/** The colour scheme is the only thing the console keeps in localStorage (nothing sensitive). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'arrgo-color-scheme' });

/** Secondary ("dimmed") text one shade stronger than the library's, for AA contrast on cards. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] },
});
