import { Code, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { describeOutcome, formatDuration, type Subscription, type TestResult } from './logic.ts';

/** What a "Send test" (a real signed `webhook.test` POST) came to. */
export function TestResultModal({
  tested,
  onClose,
}: {
  tested: { sub: Subscription; result: TestResult } | null;
  onClose: () => void;
}) {
  const result = tested?.result;
  return (
    <Modal opened={!!tested} onClose={onClose} title="Test delivery" size="lg">
      {tested && result && (
        <Stack gap="md" data-testid="test-result">
          <Group gap="sm">
            <ToneBadge size="lg" color={result.ok ? 'teal' : 'red'}>
              {result.ok ? 'Delivered' : 'Failed'}
            </ToneBadge>
            <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {tested.sub.url}
            </Text>
          </Group>
          <SimpleGrid cols={3}>
            <Fact label="Status code" value={result.status_code ?? '—'} />
            <Fact label="Duration" value={formatDuration(result.duration_ms)} />
            <Fact label="Outcome" value={describeOutcome(result.status_code, result.error)} />
          </SimpleGrid>
          {result.response_snippet && (
            <div>
              <Text size="sm" fw={600} mb={4}>
                Response
              </Text>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {result.response_snippet}
              </Code>
            </div>
          )}
        </Stack>
      )}
    </Modal>
  );
}

export function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" mt={2}>
        {value}
      </Text>
    </div>
  );
}
