import { Badge, type BadgeProps } from '@mantine/core';

/**
 * A light badge whose text is darker than the colour's darkest shade: Mantine's light variant writes
 * shade 7 on a pale fill, under WCAG AA's 4.5:1 for small text for teal, orange, yellow and green
 * (and shade 9 is still short of it on a striped row).
 */
export function ToneBadge({
  color = 'gray',
  styles,
  ...props
}: BadgeProps & { color?: string; 'data-testid'?: string }) {
  return (
    <Badge
      variant="light"
      color={color}
      styles={{
        label: { color: `color-mix(in srgb, var(--mantine-color-${color}-9) 75%, black)` },
        ...(styles as object),
      }}
      {...props}
    />
  );
}
