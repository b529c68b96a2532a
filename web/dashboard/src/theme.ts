import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/** System fonts only: nothing is fetched from a font CDN. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white text on primary buttons above WCAG AA contrast (4.5:1); autoContrast picks
  // dark text on light fills (yellow, orange, …). Checked by axe in the browser tests.
  primaryShade: 7,
  autoContrast: true,
  luminanceThreshold: 0.3,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

/**
 * Mantine's `dimmed` text is gray.6 in the light scheme: 3.3:1 on white, under WCAG AA's 4.5:1
 * for body text (axe's color-contrast rule). gray.7 keeps the muted look at 7:1. Likewise its
 * error colour (an invalid input's text and its message) is red.6, 3.6:1: red.9 is 5.9:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
