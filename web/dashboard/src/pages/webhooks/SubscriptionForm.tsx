import { Button, Checkbox, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { eventTypesToSend, RESULT_TYPE_HELP, RESULT_TYPES, type Subscription } from './logic.ts';

/**
 * "Add endpoint": URL, event types and a description; then the signing secret, shown once. With
 * `editing`, the same form changes an endpoint (its secret stays as it is).
 */
export function SubscriptionForm({
  opened,
  onClose,
  onCreated,
  editing,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: () => void;
  editing?: Subscription;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [all, setAll] = useState(!editing || editing.event_types.includes('*'));
  const [picked, setPicked] = useState<string[]>(editing?.event_types.filter((t) => t !== '*') ?? []);
  const [typesError, setTypesError] = useState<string | null>(null);
  // The secret lives in this component's state only, and is dropped when the dialog closes.
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(
    trpc.webhooks.subscriptions.create.mutationOptions({
      onSuccess: (sub) => {
        setSecret(sub.secret);
        onCreated();
      },
      onError: (error) => notifyUnlessShown(error, ['url', 'event_types', 'description']),
    }),
  );
  const update = useMutation(
    trpc.webhooks.subscriptions.update.mutationOptions({
      onSuccess: () => {
        notifySuccess('Endpoint saved');
        onCreated();
        onClose();
      },
      onError: (error) => notifyUnlessShown(error, ['url', 'event_types', 'description']),
    }),
  );
  const fieldError = (field: string) => fieldErrorOf(editing ? update.error : create.error, field);

  const close = () => {
    setSecret(null);
    setUrl('');
    setDescription('');
    setAll(true);
    setPicked([]);
    setTypesError(null);
    create.reset();
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const event_types = eventTypesToSend(all, picked);
    if (!event_types) {
      setTypesError('Pick at least one event type');
      return;
    }
    setTypesError(null);
    if (editing)
      update.mutate({
        mode,
        id: editing.id,
        url: url.trim(),
        event_types,
        description: description.trim() || null,
      });
    else create.mutate({ mode, url: url.trim(), event_types, description: description.trim() || undefined });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={secret ? 'Endpoint added' : editing ? 'Edit webhook endpoint' : 'Add a webhook endpoint'}
      size="lg"
    >
      {secret ? (
        <ShownOnce label="Signing secret" secret={secret} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Endpoint URL"
              description="A public http(s) URL. Private and loopback addresses are refused."
              placeholder="https://example.com/hooks/svc"
              required
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={fieldError('url')}
              data-autofocus
            />
            <Checkbox
              label="All events"
              description="Also every type added later"
              checked={all}
              onChange={(e) => setAll(e.currentTarget.checked)}
            />
            <Checkbox.Group
              label="Event types"
              value={all ? [...RESULT_TYPES] : picked}
              onChange={(v) => {
                setPicked(v);
                setTypesError(null);
              }}
              error={typesError ?? fieldError('event_types')}
            >
              <Stack gap={6} mt={6}>
                {RESULT_TYPES.map((t) => (
                  <Checkbox
                    key={t}
                    value={t}
                    disabled={all}
                    label={
                      <Text size="sm" ff="monospace" span>
                        {t}
                      </Text>
                    }
                    description={RESULT_TYPE_HELP[t]}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <Textarea
              label="Description"
              placeholder="What this endpoint is for"
              autosize
              minRows={2}
              maxLength={500}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={fieldError('description')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending || update.isPending}>
                {editing ? 'Save endpoint' : 'Add endpoint'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
