import { DEFAULT_THEME, darken } from '@mantine/core';

/**
 * Readable light colours. Mantine's light variants write a pale fill with shade-9 text at best,
 * which is under WCAG AA's 4.5:1 for yellow, orange, teal, cyan, … (axe color-contrast). The text
 * here is shade 9 darkened by a third: the hue stays, the contrast is above 5:1 on the fill.
 */
const textOf = (color: string) => {
  const shades = DEFAULT_THEME.colors[color];
  return shades ? darken(shades[9], 0.35) : 'var(--mantine-color-text)';
};

/** A light Badge or Button in `color`, its text dark enough to read. */
export const tone = (color: string) => ({ color, variant: 'light' as const, c: textOf(color) });

/** A light Alert in `color`, its title dark enough to read. */
export const alertTone = (color: string) => ({
  color,
  variant: 'light' as const,
  styles: { title: { color: textOf(color) } },
});
