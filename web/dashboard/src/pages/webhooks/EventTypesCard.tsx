import { Accordion, Anchor, Card, Code, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/QueryState.tsx';
import { useTRPC } from '../../trpc.ts';

/**
 * What the endpoint receives: each subscribed type's description and an example of its `data`,
 * from the event catalogue (docs/webhooks.md#catalogue), the same one GET /v1/webhook-event-types
 * and the OpenAPI document's `webhooks` publish.
 */
export function EventTypesCard({ subscribed }: { subscribed: readonly string[] }) {
  const trpc = useTRPC();
  const catalogue = useQuery(trpc.webhooks.eventTypes.queryOptions(undefined, { staleTime: Infinity }));
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="md" mb={2}>
        What this endpoint receives
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Each delivery is <Code>{'{ id, type, tenant, created_at, data }'}</Code>; the JSON Schema of every{' '}
        <Code>data</Code> is in the{' '}
        <Anchor href="/docs" size="sm" underline="always">
          API reference
        </Anchor>
        .
      </Text>
      <QueryState query={catalogue}>
        {(types) => (
          <Accordion variant="separated" chevronPosition="left" aria-label="Event types">
            {types
              .filter((t) => subscribed.includes('*') || subscribed.includes(t.type))
              .map((t) => (
                <Accordion.Item key={t.type} value={t.type}>
                  <Accordion.Control>
                    <Text size="sm" ff="monospace" fw={600} span>
                      {t.type}
                    </Text>
                    <Text size="sm" c="dimmed" span ml="sm">
                      {t.summary}
                    </Text>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <Text size="sm" mb="xs">
                      {t.description}
                    </Text>
                    <Text size="xs" c="dimmed" mb={4}>
                      An example of its data
                    </Text>
                    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                      {JSON.stringify(t.example, null, 2)}
                    </Code>
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
          </Accordion>
        )}
      </QueryState>
    </Card>
  );
}
