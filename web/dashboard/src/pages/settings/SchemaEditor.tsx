import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { describeError, useTRPC } from '../../trpc.ts';
import { type EventType, parseSchemaText, SCHEMA_TEMPLATE } from './logic.ts';

/**
 * A JSON Schema editor for one event type: the text is parsed as it is typed (the JSON error is
 * shown at once), and what the service refuses (not a valid JSON Schema, a bad key) is shown too.
 */
export function SchemaEditor({
  eventType,
  onClose,
  onSaved,
}: {
  /** null: a new event type, named in the form. */
  eventType: EventType | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [key, setKey] = useState(eventType?.key ?? '');
  const [text, setText] = useState(
    eventType?.schema ? JSON.stringify(eventType.schema, null, 2) : SCHEMA_TEMPLATE,
  );
  const [touched, setTouched] = useState(false);
  const parsed = parseSchemaText(text);
  const put = useMutation(
    trpc.eventTypes.putSchema.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Schema of ${t.key} saved: new events are checked against it`);
        onSaved();
        onClose();
      },
    }),
  );
  const problem = put.error ? describeError(put.error) : null;
  const fieldError = (field: string) => problem?.fields.find((f) => f.field === field)?.message;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!parsed.ok || !key.trim()) return;
    put.mutate({ mode, key: key.trim(), schema: parsed.schema });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={eventType ? `Schema of ${eventType.key}` : 'Add an event-type schema'}
      size="xl"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Event type"
            required
            placeholder="order.completed"
            readOnly={!!eventType}
            value={key}
            onChange={(e) => {
              setKey(e.currentTarget.value);
              put.reset();
            }}
            error={fieldError('key') ?? (touched && !key.trim() ? 'Name the event type' : undefined)}
          />
          <Textarea
            label="JSON Schema"
            description="Draft 2020-12. Payloads of this type that fail it are quarantined."
            required
            autosize
            minRows={12}
            maxRows={24}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setTouched(true);
              put.reset(); // the service's verdict was on the old text
            }}
            error={(touched && !parsed.ok ? parsed.error : undefined) ?? fieldError('schema')}
          />
          {problem && !problem.fields.length && (
            <Alert color="red" title="Not saved" role="alert">
              <Text size="sm">{problem.message}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={put.isPending} disabled={touched && !parsed.ok}>
              Save schema
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
