import { Badge, type BadgeProps } from '@mantine/core';

/**
 * A light badge whose text is darker than the colour's darkest shade: Mantine's light variant writes
 * shade 7 on a pale fill, under WCAG AA's 4.5:1 for small text for teal, orange, yellow and green
 * (and shade 9 is still short of it on a striped row).
 *
 * Its text is never cut: a Badge clips its label with an ellipsis when a table squeezes its column,
 * which turned `active` into `ACTI…` and hid the end of an event type (`points.chan…`), the part
 * that tells two types apart. Here the label keeps its width (the column makes room, and a group
 * of badges wraps onto more lines), and its text is also the element's title.
 */
export function ToneBadge({
  color = 'gray',
  styles,
  ...props
}: BadgeProps & { color?: string; 'data-testid'?: string; title?: string }) {
  return (
    <Badge
      variant="light"
      color={color}
      title={typeof props.children === 'string' ? props.children : undefined}
      styles={{
        root: { overflow: 'visible', maxWidth: 'none', flexShrink: 0 },
        label: {
          color: `color-mix(in srgb, var(--mantine-color-${color}-9) 75%, black)`,
          overflow: 'visible',
          textOverflow: 'clip',
        },
        ...(styles as object),
      }}
      {...props}
    />
  );
}
