import { Alert, Card, Code, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { describeError, useTRPC } from '../../trpc.ts';
import { alertTone } from '../rewards/tone.ts';
import { type TemplateFormValues, templatePayload } from './template-form.ts';

/**
 * The preview, rendered by the service (`messages.preview`, the renderer sends use, so what is
 * shown is what a participant gets) as the form changes, 300 ms after the last keystroke.
 */
export function Preview({
  values,
  variables,
}: {
  values: TemplateFormValues;
  variables: Record<string, unknown> | null;
}) {
  const trpc = useTRPC();
  const preview = useMutation(trpc.messages.preview.mutationOptions());
  const [view, setView] = useState<'rendered' | 'source'>('rendered');
  const request = JSON.stringify({ ...templatePayload(values), variables });
  const [debounced] = useDebouncedValue(request, 300);
  const { mutate } = preview;
  useEffect(() => {
    const input = JSON.parse(debounced);
    if (input.variables === null || !input.body) return;
    mutate(input);
  }, [debounced, mutate]);
  const r = preview.data;
  const email = values.channel === 'email';
  return (
    <Card withBorder radius="md" padding="lg" data-testid="template-preview">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="md">
          Preview
        </Title>
        {email && (
          <SegmentedControl
            size="xs"
            aria-label="Preview view"
            value={view}
            onChange={(x) => setView(x as 'rendered' | 'source')}
            data={[
              { label: 'Rendered', value: 'rendered' },
              { label: 'HTML', value: 'source' },
            ]}
          />
        )}
      </Group>
      {!values.body ? (
        <Text size="sm" c="dimmed">
          Write a body to see it rendered with the sample variables.
        </Text>
      ) : variables === null ? (
        <Text size="sm" c="dimmed">
          Fix the sample variables to update the preview.
        </Text>
      ) : preview.error ? (
        <Alert {...alertTone('red')} title="Cannot render" role="alert">
          {describeError(preview.error).message}
        </Alert>
      ) : r ? (
        <Stack gap="xs">
          {r.subject !== null && (
            <Text size="sm" data-testid="preview-subject">
              <b>Subject:</b> {r.subject}
            </Text>
          )}
          {email && view === 'rendered' ? (
            // No scripts, forms or same-origin access: the body is the template author's HTML.
            <iframe
              title="Rendered e-mail preview"
              sandbox=""
              srcDoc={r.body}
              style={{
                width: '100%',
                minHeight: 220,
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 6,
                background: 'white',
              }}
            />
          ) : null}
          <Code
            block
            data-testid="preview-body"
            style={{
              whiteSpace: 'pre-wrap',
              maxHeight: 300,
              overflow: 'auto',
              display: email && view === 'rendered' ? 'none' : undefined,
            }}
          >
            {r.body}
          </Code>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Rendering…
        </Text>
      )}
    </Card>
  );
}
