import {
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import type { IngestEndpoint } from './logic.ts';

/** Signed ingest endpoints (docs/api.md#event-ingest-rules) of the current mode: list, create (secret shown once), delete. */
export function IngestEndpoints() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const list = useInfiniteQuery(
    trpc.ingestEndpoints.list.infiniteQueryOptions({ mode, limit: 50 }, { getNextPageParam: nextPage }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.ingestEndpoints.list.pathKey() });
  const remove = useMutation(
    trpc.ingestEndpoints.delete.mutationOptions({
      onSuccess: () => {
        notifySuccess('Ingest endpoint deleted');
        refresh();
      },
      onError: notifyError,
    }),
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" gap="xl">
        <Text size="sm" c="dimmed">
          Systems without an API key POST events to <Code>/v1/ingest/&lt;key&gt;</Code>, signed with the
          endpoint's secret in <Code>X-Signature</Code>.
        </Text>
        <Button onClick={() => setCreating(true)} style={{ flexShrink: 0 }}>
          Create endpoint
        </Button>
      </Group>
      <PagedTable<IngestEndpoint>
        query={list}
        label="Ingest endpoints"
        rowKey={(e) => e.id}
        empty={`No ingest endpoints in ${mode} mode yet.`}
        columns={[
          {
            key: 'name',
            title: 'Name',
            render: (e) => (
              <Text size="sm" fw={500}>
                {e.name}
              </Text>
            ),
          },
          {
            key: 'url',
            title: 'Ingest URL',
            render: (e) => {
              const url = `${window.location.origin}/v1/ingest/${e.key}`;
              return (
                <Group gap={6} wrap="nowrap">
                  <Code style={{ whiteSpace: 'nowrap' }}>/v1/ingest/{e.key}</Code>
                  <CopyButton value={url}>
                    {({ copied, copy }) => (
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={copy}
                        aria-label={`${copied ? 'Copied' : 'Copy'} the ingest URL of ${e.name}`}
                      >
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              );
            },
          },
          {
            key: 'type',
            title: 'Default event type',
            render: (e) => (e.default_event_type ? <Code>{e.default_event_type}</Code> : '—'),
          },
          { key: 'created', title: 'Created', render: (e) => formatDateTime(e.created_at) },
          {
            key: 'actions',
            title: <VisuallyHidden>Actions</VisuallyHidden>,
            render: (e) => (
              <Group justify="flex-end">
                <ConfirmButton
                  size="xs"
                  variant="light"
                  color="red"
                  aria-label={`Delete ${e.name}`}
                  title="Delete this ingest endpoint?"
                  message={
                    <>
                      Events sent to <b>/v1/ingest/{e.key}</b> are refused from now on. This cannot be undone.
                    </>
                  }
                  confirmLabel="Delete endpoint"
                  loading={remove.isPending && remove.variables?.id === e.id}
                  onConfirm={() => remove.mutate({ mode, id: e.id })}
                >
                  Delete
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
      {creating && <IngestForm onClose={() => setCreating(false)} onCreated={refresh} />}
    </Stack>
  );
}

function IngestForm({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [name, setName] = useState('');
  const [defaultType, setDefaultType] = useState('');
  const [created, setCreated] = useState<{ key: string; secret: string } | null>(null);
  const create = useMutation(
    trpc.ingestEndpoints.create.mutationOptions({
      onSuccess: (e) => {
        setCreated({ key: e.key, secret: e.secret });
        onCreated();
      },
      onError: (error) => notifyUnlessShown(error, ['name', 'default_event_type']),
    }),
  );
  const fieldError = (field: string) => fieldErrorOf(create.error, field);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ mode, name: name.trim(), default_event_type: defaultType.trim() || null });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={created ? 'Ingest endpoint created' : 'Create an ingest endpoint'}
      size="lg"
    >
      {created ? (
        <Stack gap="sm">
          <Text size="sm">
            Send events to <Code>/v1/ingest/{created.key}</Code>.
          </Text>
          <ShownOnce label="Signing secret" secret={created.secret} onDone={onClose} />
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Name"
              required
              placeholder="Shopify orders"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError('name')}
              data-autofocus
            />
            <TextInput
              label="Default event type"
              description="Used when a posted event names none"
              placeholder="order.completed"
              value={defaultType}
              onChange={(e) => setDefaultType(e.currentTarget.value)}
              error={fieldError('default_event_type')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create endpoint
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
