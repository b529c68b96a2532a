import { Anchor, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type FormEvent, useState } from 'react';
import type { AppRouter } from '../../../../../src/trpc/router.ts';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { replayFixes } from './replay.ts';

type EventDetail = inferRouterOutputs<AppRouter>['events']['get'];

/**
 * Replay of a quarantined event (docs/api.md#replay): a new event with the fixes given — another
 * type, a corrected payload — goes through the whole pipeline (checked against its type's schema
 * again); this one stays quarantined and links to it. An event is replayed once.
 */
export function ReplayEvent({ event, onOpen }: { event: EventDetail; onOpen: (id: string) => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const original = JSON.stringify(event.payload, null, 2);
  const [eventType, setEventType] = useState('');
  const [payload, setPayload] = useState(original);
  const [local, setLocal] = useState<Record<string, string>>({});
  const replay = useMutation(
    trpc.events.replay.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(r.status === 'quarantined' ? 'Replayed, and quarantined again' : 'Event replayed');
        queryClient.invalidateQueries({ queryKey: trpc.events.pathKey() });
        onOpen(r.event_id);
      },
      onError: (error) => notifyUnlessShown(error, ['event_type', 'payload']),
    }),
  );

  if (event.replayed_as) {
    const replayedAs = event.replayed_as;
    return (
      <Text size="sm" data-testid="replayed-as">
        Replayed as{' '}
        <Anchor component="button" type="button" size="sm" ff="monospace" onClick={() => onOpen(replayedAs)}>
          {replayedAs}
        </Anchor>
        .
      </Text>
    );
  }

  const error = (field: 'event_type' | 'payload') => local[field] ?? fieldErrorOf(replay.error, field);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fixes = replayFixes(eventType, payload, original);
    if ('errors' in fixes) {
      setLocal(fixes.errors);
      return;
    }
    setLocal({});
    replay.mutate({ mode, id: event.id, ...fixes.fixes });
  };

  return (
    <Card withBorder padding="md">
      <form onSubmit={submit} noValidate aria-label="Replay this event">
        <Stack gap="sm">
          <div>
            <Title order={3} fz="sm">
              Replay
            </Title>
            <Text size="sm" c="dimmed">
              Sends a new event with your fixes through processing; it is checked against its type’s schema
              again. This one stays quarantined and links to it. An event is replayed once.
            </Text>
          </div>
          <TextInput
            label="Event type"
            description={
              event.event_type ? `Empty: keep ${event.event_type}` : 'Required: this event has no type'
            }
            placeholder={event.event_type ?? 'order.completed'}
            value={eventType}
            onChange={(e) => setEventType(e.currentTarget.value)}
            error={error('event_type')}
          />
          <Textarea
            label="Payload"
            description="JSON object; leave it as it is to keep the payload"
            autosize
            minRows={3}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={payload}
            onChange={(e) => setPayload(e.currentTarget.value)}
            error={error('payload')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={replay.isPending}>
              Replay event
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
