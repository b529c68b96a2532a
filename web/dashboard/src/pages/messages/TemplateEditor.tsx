import {
  Button,
  Card,
  Grid,
  Group,
  Input,
  JsonInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../trpc.ts';
import { Preview } from './Preview.tsx';
import {
  type Channel,
  parseVariables,
  sampleVariablesText,
  type TemplateField,
  type TemplateFormValues,
  TOKENS,
  templateErrors,
} from './template-form.ts';

/** A failed save's message for `field` (or a nested one, `body.…`), for its input. */
const savedError = (error: unknown, field: string) =>
  error
    ? describeError(error).fields.find((f) => f.field === field || f.field.startsWith(`${field}.`))?.message
    : undefined;

/**
 * The template form beside its live preview. It checks the values with the service's own input
 * schema on submit (and as they change after a refused submit), showing each message beside its
 * input; what only the service can know (a key already taken) comes back from the save the same way.
 */
export function TemplateEditor({
  initial,
  creating,
  saving,
  error,
  onSave,
}: {
  initial: TemplateFormValues;
  creating: boolean;
  saving: boolean;
  error: unknown;
  onSave: (v: TemplateFormValues) => void;
}) {
  const [v, setV] = useState(initial);
  const [checked, setChecked] = useState(false);
  const [variables, setVariables] = useState(sampleVariablesText);
  const set = <K extends keyof TemplateFormValues>(k: K, value: TemplateFormValues[K]) =>
    setV((old) => ({ ...old, [k]: value }));
  const parsed = parseVariables(variables);
  const local = checked ? templateErrors(v, creating) : {};
  const errorOf = (field: TemplateField) => local[field] ?? savedError(error, field);
  return (
    <form
      aria-label={creating ? 'New template' : 'Edit template'}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setChecked(true);
        if (Object.keys(templateErrors(v, creating)).length === 0) onSave(v);
      }}
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="sm">
              <TextInput
                label="Key"
                required
                disabled={!creating}
                description={
                  creating
                    ? 'Letters, digits and . _ : - (flows name the template by it).'
                    : 'Fixed: flows name the template by it.'
                }
                ff="monospace"
                value={v.key}
                onChange={(e) => set('key', e.currentTarget.value)}
                error={errorOf('key')}
              />
              <div>
                <Input.Label id="channel-label">Channel</Input.Label>
                <SegmentedControl
                  aria-labelledby="channel-label"
                  value={v.channel}
                  onChange={(c) => set('channel', c as Channel)}
                  data={[
                    { label: 'E-mail', value: 'email' },
                    { label: 'SMS', value: 'sms' },
                  ]}
                />
              </div>
              {v.channel === 'email' && (
                <TextInput
                  label="Subject"
                  value={v.subject}
                  onChange={(e) => set('subject', e.currentTarget.value)}
                  error={errorOf('subject')}
                />
              )}
              <Textarea
                label="Body"
                required
                autosize
                minRows={8}
                maxRows={24}
                description={
                  v.channel === 'email' ? 'HTML. Substituted values are HTML-escaped.' : 'Plain text.'
                }
                value={v.body}
                onChange={(e) => set('body', e.currentTarget.value)}
                error={errorOf('body')}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
              <Text size="xs" c="dimmed">
                Tokens: {TOKENS.join(' ')}. Unknown tokens render empty; values are never evaluated.
              </Text>
              <Group justify="flex-end">
                <Button type="submit" loading={saving}>
                  {creating ? 'Create template' : 'Save template'}
                </Button>
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="lg">
            <Preview values={v} variables={parsed.ok ? parsed.value : null} />
            <Card withBorder radius="md" padding="lg">
              <JsonInput
                label="Sample variables"
                description="What a flow would pass: edit them to see the preview change."
                autosize
                minRows={6}
                maxRows={18}
                value={variables}
                onChange={setVariables}
                error={parsed.ok ? undefined : parsed.error}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}
