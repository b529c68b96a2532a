import { Badge } from '@mantine/core';
import { typeLabel } from './reward-form.ts';
import { tone } from './tone.ts';

const TYPE_COLORS: Record<string, string> = {
  voucher_code: 'indigo',
  digital_asset: 'cyan',
  physical: 'grape',
  points_multiplier: 'orange',
  external: 'teal',
};

/** A reward type as a coloured label. */
export function TypeBadge({ type }: { type: string }) {
  return (
    <Badge {...tone(TYPE_COLORS[type] ?? 'gray')} radius="sm">
      {typeLabel(type)}
    </Badge>
  );
}
