import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMode } from '../../mode.tsx';
import { notifyError } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone, tone } from './tone.ts';

/**
 * "Test endpoint": fires the external reward's request (saved config, or `config` when given: the
 * edit form as it stands) with a sample participant, and shows what came back. Nothing is debited.
 */
export function TestFulfilment({
  rewardId,
  config,
  disabled,
}: {
  rewardId: number;
  config?: Record<string, unknown>;
  disabled?: boolean;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const test = useMutation(trpc.rewards.testFulfilment.mutationOptions({ onError: notifyError }));
  const r = test.data;
  return (
    <Stack gap="sm">
      <Group>
        <Button
          {...tone('indigo')}
          loading={test.isPending}
          disabled={disabled}
          onClick={() => test.mutate({ mode, id: rewardId, ...(config ? { config } : {}) })}
        >
          Test endpoint
        </Button>
        <Text size="sm" c="dimmed">
          Calls it now as test-participant; nothing is debited or stored.
        </Text>
      </Group>
      {r && (
        <Alert
          {...alertTone(r.ok ? 'teal' : 'red')}
          title={r.ok ? 'The endpoint answered with a code' : 'The endpoint test failed'}
          data-testid="fulfilment-result"
          role="status"
        >
          <Stack gap={6}>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                Status
              </Text>
              <Badge {...tone(r.ok ? 'teal' : 'red')}>{r.status_code ?? 'no response'}</Badge>
              {r.code !== null && (
                <>
                  <Text size="sm" fw={600}>
                    Code
                  </Text>
                  <Code data-testid="fulfilment-code">{r.code}</Code>
                </>
              )}
            </Group>
            {r.error && <Text size="sm">{r.error}</Text>}
            {r.response_snippet && (
              <Code block style={{ maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
                {r.response_snippet}
              </Code>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
