import {
  Button,
  Card,
  Grid,
  Group,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { passwordProblem } from './logic.ts';

/** Who can sign in to this workspace's dashboard: list, add (e-mail + password), delete (not yourself). */
export function Users() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: (u) => {
        notifySuccess(`${u.email} can no longer sign in`);
        refresh();
      },
      onError: notifyError,
    }),
  );
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Card withBorder padding="lg">
          <Title order={3} fz="md" mb="sm">
            Users
          </Title>
          <QueryState query={users} isEmpty={(d) => !d.data.length} empty="No users.">
            {(d) => (
              <Table verticalSpacing="sm" aria-label="Dashboard users">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>E-mail</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.data.map((u) => (
                    <Table.Tr key={u.id}>
                      <Table.Td>
                        <Group gap="xs">
                          <Text size="sm">{u.email}</Text>
                          {u.you && (
                            <ToneBadge size="sm" color="indigo">
                              You
                            </ToneBadge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{formatDateTime(u.created_at)}</Table.Td>
                      <Table.Td>
                        <Group justify="flex-end">
                          {u.you ? (
                            <Text size="xs" c="dimmed">
                              Signed in
                            </Text>
                          ) : (
                            <ConfirmButton
                              size="xs"
                              variant="light"
                              color="red"
                              aria-label={`Delete ${u.email}`}
                              title="Delete this user?"
                              message={
                                <>
                                  <b>{u.email}</b> is signed out everywhere and can no longer sign in.
                                </>
                              }
                              confirmLabel="Delete user"
                              loading={remove.isPending && remove.variables?.id === u.id}
                              onConfirm={() => remove.mutate({ id: u.id })}
                            >
                              Delete
                            </ConfirmButton>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </QueryState>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <AddUser onAdded={refresh} />
      </Grid.Col>
    </Grid>
  );
}

function AddUser({ onAdded }: { onAdded: () => void }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: (u) => {
        notifySuccess(`${u.email} can now sign in`);
        setEmail('');
        setPassword('');
        setTouched(false);
        onAdded();
      },
      onError: (error) => notifyUnlessShown(error, ['email', 'password']),
    }),
  );
  const fieldError = (field: string) => fieldErrorOf(create.error, field);
  const pwProblem = passwordProblem(password);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (pwProblem || !email.trim()) return;
    create.mutate({ email: email.trim(), password });
  };
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="md" mb="sm">
        Add a user
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="E-mail"
            type="email"
            required
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError('email') ?? (touched && !email.trim() ? 'Enter an e-mail address' : undefined)}
          />
          <PasswordInput
            label="Password"
            description="8 to 200 characters"
            required
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError('password') ?? (touched ? pwProblem : undefined)}
          />
          <Button type="submit" loading={create.isPending} mt="xs">
            Add user
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
