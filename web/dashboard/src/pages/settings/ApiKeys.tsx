import {
  Button,
  Code,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { KeyForm } from './KeyForm.tsx';
import { type ApiKey, abilitiesLabel } from './logic.ts';

/** API keys of the workspace: mint (shown once), rotate (the new key shown once), revoke. */
export function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [showRevoked, setShowRevoked] = useState(false);
  // A rotated key's plaintext: component state only, dropped when its dialog closes.
  const [rotated, setRotated] = useState<string | null>(null);
  const keys = useQuery(trpc.keys.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const rotate = useMutation(
    trpc.keys.rotate.mutationOptions({
      onSuccess: (k) => {
        setRotated(k.key);
        refresh();
      },
      onError: notifyError,
    }),
  );
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: () => {
        notifySuccess('Key revoked: it is refused from now on');
        refresh();
      },
      onError: notifyError,
    }),
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" gap="xl">
        <Text size="sm" c="dimmed">
          Keys authenticate the REST and GraphQL APIs. <Code>svc_test_…</Code> keys see test data only,{' '}
          <Code>svc_live_…</Code> keys live data only.
        </Text>
        <Group gap="md" wrap="nowrap" style={{ flexShrink: 0 }}>
          <Switch
            label="Show revoked"
            checked={showRevoked}
            onChange={(e) => setShowRevoked(e.currentTarget.checked)}
          />
          <Button onClick={() => setCreating(true)}>Create key</Button>
        </Group>
      </Group>
      <QueryState
        query={keys}
        isEmpty={(d) => !d.data.some((k) => showRevoked || !k.revoked_at)}
        empty={showRevoked ? 'No API keys yet.' : 'No active API keys. Create one to call the API.'}
      >
        {(d) => (
          <Table striped verticalSpacing="sm" aria-label="API keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th w={200}>Key</Table.Th>
                <Table.Th w={90}>Mode</Table.Th>
                <Table.Th>Abilities</Table.Th>
                <Table.Th w={170}>Created</Table.Th>
                <Table.Th w={170}>Status</Table.Th>
                <Table.Th w={180}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.data
                .filter((k) => showRevoked || !k.revoked_at)
                .map((k) => (
                  <KeyRow
                    key={k.id}
                    k={k}
                    rotating={rotate.isPending && rotate.variables?.id === k.id}
                    revoking={revoke.isPending && revoke.variables?.id === k.id}
                    onRotate={() => rotate.mutate({ id: k.id })}
                    onRevoke={() => revoke.mutate({ id: k.id })}
                  />
                ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
      {creating && <KeyForm opened onClose={() => setCreating(false)} onCreated={refresh} />}
      <Modal opened={!!rotated} onClose={() => setRotated(null)} title="Key rotated" size="lg">
        {rotated && (
          <Stack gap="sm">
            <Text size="sm">The old key was revoked and is refused from now on. Use this one instead.</Text>
            <ShownOnce label="New API key" secret={rotated} onDone={() => setRotated(null)} />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function KeyRow({
  k,
  rotating,
  revoking,
  onRotate,
  onRevoke,
}: {
  k: ApiKey;
  rotating: boolean;
  revoking: boolean;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  const name = k.name || k.hint;
  return (
    <Table.Tr>
      <Table.Td>
        {k.name ? (
          <Text size="sm" fw={500}>
            {k.name}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            Unnamed
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Code style={{ whiteSpace: 'nowrap' }}>{k.hint}</Code>
      </Table.Td>
      <Table.Td>
        <ToneBadge color={k.mode === 'live' ? 'indigo' : 'orange'}>{k.mode}</ToneBadge>
      </Table.Td>
      <Table.Td>
        <Tooltip label={abilitiesLabel(k.abilities)} multiline w={320} openDelay={300}>
          <Text size="sm" lineClamp={1} maw={260}>
            {abilitiesLabel(k.abilities)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(k.created_at)}</Table.Td>
      <Table.Td>
        {k.revoked_at ? (
          <Stack gap={2} align="flex-start">
            <ToneBadge color="gray">Revoked</ToneBadge>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(k.revoked_at)}
            </Text>
          </Stack>
        ) : (
          <ToneBadge color="teal">Active</ToneBadge>
        )}
      </Table.Td>
      <Table.Td>
        {!k.revoked_at && (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <ConfirmButton
              size="xs"
              variant="default"
              color="indigo"
              aria-label={`Rotate ${name}`}
              title="Rotate this key?"
              message={
                <>
                  A new key with the same mode and abilities is made, and <b>{k.hint}</b> is revoked at once:
                  update every system that uses it.
                </>
              }
              confirmLabel="Rotate key"
              loading={rotating}
              onConfirm={onRotate}
            >
              Rotate
            </ConfirmButton>
            <ConfirmButton
              size="xs"
              variant="light"
              color="red"
              aria-label={`Revoke ${name}`}
              title="Revoke this key?"
              message={
                <>
                  <b>{k.hint}</b> is refused from its very next request, and the participant tokens it minted
                  stop working. This cannot be undone.
                </>
              }
              confirmLabel="Revoke key"
              loading={revoking}
              onConfirm={onRevoke}
            >
              Revoke
            </ConfirmButton>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
