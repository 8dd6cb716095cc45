import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

// Dark by default, as the *arr apps. Shades picked for WCAG AA contrast of white text on filled
// controls (the axe scan of every page in the browser tests holds it).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  defaultRadius: 'sm',
});

/** The colour scheme is the only thing the console keeps in localStorage (nothing sensitive). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'arrgo-color-scheme' });
