import { Badge } from '@mantine/core';
import { tone } from '../rewards/tone.ts';

/** A template's or message's channel, in words. */
export function ChannelBadge({ channel }: { channel: string }) {
  return (
    <Badge {...tone(channel === 'email' ? 'blue' : 'grape')} radius="sm">
      {channel === 'email' ? 'E-mail' : 'SMS'}
    </Badge>
  );
}
