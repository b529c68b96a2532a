import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { describeError, useTRPC } from '../trpc.ts';

/** Sign in with a dashboard user (`svc users create`, or the demo login `npm start` prints). */
export function SignIn() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ workspace: '', email: '', password: '' });
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (user) => queryClient.setQueryData(trpc.auth.me.queryKey(), user),
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate(form);
  };
  const set = (field: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: e.currentTarget.value });
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w={380}>
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} fz="h3">
              Sign in to Svc
            </Title>
            {login.isError && (
              <Alert color="red" role="alert">
                {describeError(login.error).message}
              </Alert>
            )}
            <TextInput
              label="Workspace"
              name="workspace"
              required
              autoComplete="organization"
              value={form.workspace}
              onChange={set('workspace')}
            />
            <TextInput
              label="E-mail"
              name="email"
              type="email"
              required
              autoComplete="username"
              value={form.email}
              onChange={set('email')}
            />
            <PasswordInput
              label="Password"
              name="password"
              required
              autoComplete="current-password"
              value={form.password}
              onChange={set('password')}
            />
            <Button type="submit" loading={login.isPending}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
