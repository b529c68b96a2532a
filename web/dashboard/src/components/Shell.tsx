import {
  AppShell,
  Badge,
  Box,
  Burger,
  Button,
  Group,
  NavLink,
  SegmentedControl,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { type Mode, useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';

const NAV: { to: string; label: string }[] = [
  { to: '/', label: 'Overview' },
  { to: '/participants', label: 'Participants' },
  { to: '/events', label: 'Events' },
  { to: '/flows', label: 'Flows' },
  { to: '/programme', label: 'Programme' },
  { to: '/tiers', label: 'Tiers' },
  { to: '/streaks', label: 'Streaks' },
  { to: '/achievements', label: 'Achievements' },
  { to: '/referrals', label: 'Referrals' },
  { to: '/rewards', label: 'Rewards' },
  { to: '/redemptions', label: 'Redemptions' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/messages', label: 'Messages' },
  { to: '/exports', label: 'Exports' },
  { to: '/settings', label: 'Settings' },
];

/** tRPC query keys start with the procedure path: `[['auth', 'me'], …]`. */
const isAuthQuery = (key: readonly unknown[]) => Array.isArray(key[0]) && key[0][0] === 'auth';

interface User {
  email: string;
  workspace: { name: string; slug: string };
}

/** The frame of every signed-in page: navigation, workspace, the live/test switch and sign-out. */
export function Shell({ user, children }: { user: User; children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure();
  const { mode, setMode } = useMode();
  const { pathname } = useLocation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const logout = useMutation(
    trpc.auth.logout.mutationOptions({ onSettled: () => queryClient.resetQueries() }),
  );
  const test = mode === 'test';
  return (
    <AppShell
      header={{ height: test ? 84 : 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        {test && (
          <Box
            data-testid="test-mode-bar"
            bg="orange.5"
            c="dark.9"
            ta="center"
            fz="xs"
            fw={700}
            h={24}
            style={{ lineHeight: '24px', letterSpacing: 0.5 }}
          >
            TEST MODE: you are viewing test data
          </Box>
        )}
        <Group h={60} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} fz="lg">
              Svc
            </Title>
            <Badge variant="light" size="lg" data-testid="workspace-name">
              {user.workspace.name}
            </Badge>
          </Group>
          <Group gap="md" wrap="nowrap">
            <SegmentedControl
              aria-label="Data mode"
              value={mode}
              onChange={(v) => {
                setMode(v as Mode);
                queryClient.resetQueries({ predicate: (q) => !isAuthQuery(q.queryKey) });
              }}
              data={[
                { label: 'Live', value: 'live' },
                { label: 'Test', value: 'test' },
              ]}
            />
            <Text size="sm" c="dimmed" visibleFrom="md">
              {user.email}
            </Text>
            <Button variant="default" size="xs" loading={logout.isPending} onClick={() => logout.mutate()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={RouterLink}
            to={item.to}
            label={item.label}
            active={item.to === '/' ? pathname === '/' : pathname.startsWith(item.to)}
            onClick={() => opened && toggle()}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
