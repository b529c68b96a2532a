import { Alert, Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormSection } from '../../components/FormSection.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { formatNumber } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone } from '../rewards/tone.ts';
import { RECOVER_MAX_DAYS, recoverBody, type Subscription, toLocalInput } from './logic.ts';

/**
 * Recover (docs/webhooks.md#recover): the endpoint's dead deliveries created in a range go back to
 * pending and are sent again, oldest first. The service refuses a start older than 14 days and an
 * end before the start; those refusals show on their inputs. Only an active endpoint recovers.
 */
export function RecoverDeliveries({ sub }: { sub: Subscription }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 86_400_000)));
  const [until, setUntil] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});
  const recover = useMutation(
    trpc.webhooks.subscriptions.recover.mutationOptions({
      onSuccess: ({ recovered }) => {
        notifySuccess(recovered === 1 ? '1 delivery queued again' : `${recovered} deliveries queued again`);
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: (error) => notifyUnlessShown(error, ['since', 'until']),
    }),
  );
  const error = (field: 'since' | 'until') => local[field] ?? fieldErrorOf(recover.error, field);
  const active = sub.status === 'active';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = recoverBody(since, until);
    if ('errors' in parsed) {
      setLocal(parsed.errors);
      recover.reset();
      return;
    }
    setLocal({});
    recover.mutate({ mode, id: sub.id, ...parsed.body });
  };

  return (
    <FormSection
      title="Recover failed deliveries"
      description={`Dead deliveries created in this range go back to pending and are sent again, oldest first, with the same body. Up to ${RECOVER_MAX_DAYS} days back; times are in your browser’s time zone.`}
    >
      <form onSubmit={submit} noValidate aria-label="Recover failed deliveries">
        <SimpleGrid cols={2}>
          <TextInput
            type="datetime-local"
            label="Since"
            description={`At most ${RECOVER_MAX_DAYS} days ago`}
            required
            value={since}
            disabled={!active}
            onChange={(e) => setSince(e.currentTarget.value)}
            error={error('since')}
          />
          <TextInput
            type="datetime-local"
            label="Until"
            description="Empty: now"
            value={until}
            disabled={!active}
            onChange={(e) => setUntil(e.currentTarget.value)}
            error={error('until')}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="md" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {active
              ? 'Each recovered delivery starts its retries afresh.'
              : `The endpoint is ${sub.status}: ${sub.status === 'disabled' ? 're-enable' : 'resume'} it first.`}
          </Text>
          <Button type="submit" disabled={!active} loading={recover.isPending} style={{ flexShrink: 0 }}>
            Recover
          </Button>
        </Group>
      </form>
      {recover.data && (
        <Alert {...alertTone('teal')} title="Queued again" data-testid="recovered">
          {formatNumber(recover.data.recovered)} dead{' '}
          {recover.data.recovered === 1 ? 'delivery goes' : 'deliveries go'} out again.
        </Alert>
      )}
    </FormSection>
  );
}
