import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Grid,
  Group,
  Input,
  JsonInput,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useEffect, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import type { AppRouter } from '../../../../src/trpc/router.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { type Column, nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { describeError, useTRPC } from '../trpc.ts';
import {
  type Channel,
  parseVariables,
  sampleVariablesText,
  type TemplateFormValues,
  TOKENS,
  templatePayload,
} from './messages/template-form.ts';
import { asInfinite, asQuery } from './rewards/query.ts';
import { alertTone, tone } from './rewards/tone.ts';

type Outputs = inferRouterOutputs<AppRouter>['messages'];
type Template = Outputs['templates']['get'];
type Message = Outputs['list']['data'][number];

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

const MESSAGE_STATUSES = ['pending', 'sent', 'simulated', 'failed', 'skipped'] as const;
const STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  sent: 'teal',
  simulated: 'indigo',
  failed: 'red',
  skipped: 'gray',
};

function ChannelBadge({ channel }: { channel: string }) {
  return (
    <Badge {...tone(channel === 'email' ? 'blue' : 'grape')} radius="sm">
      {channel === 'email' ? 'E-mail' : 'SMS'}
    </Badge>
  );
}

export default function Messages() {
  return (
    <Routes>
      <Route index element={<MessagesHome tab="templates" />} />
      <Route path="log" element={<MessagesHome tab="log" />} />
      <Route path="templates/new" element={<NewTemplate />} />
      <Route path="templates/:key" element={<EditTemplate />} />
    </Routes>
  );
}

function MessagesHome({ tab }: { tab: 'templates' | 'log' }) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Messages"
        description="Templates that flows send by key, and the log of every message rendered from them."
        actions={
          <Button component={Link} to="/messages/templates/new">
            New template
          </Button>
        }
      />
      <Tabs value={tab} onChange={(t) => navigate(t === 'log' ? '/messages/log' : '/messages')} mb="md">
        <Tabs.List>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="log">Message log</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'templates' ? <TemplateList /> : <MessageLog />}
    </>
  );
}

function TemplateList() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const list = useInfiniteQuery(
    trpc.messages.templates.list.infiniteQueryOptions({ mode }, { getNextPageParam: nextPage }),
  );
  const columns: Column<Template>[] = [
    {
      key: 'key',
      title: 'Key',
      render: (t) => (
        <Anchor
          component={Link}
          to={`/messages/templates/${encodeURIComponent(t.key)}`}
          ff="monospace"
          fw={600}
          size="sm"
        >
          {t.key}
        </Anchor>
      ),
    },
    { key: 'channel', title: 'Channel', render: (t) => <ChannelBadge channel={t.channel} /> },
    {
      key: 'subject',
      title: 'Subject / first line',
      render: (t) => (
        <Text size="sm" lineClamp={1} maw={520}>
          {t.subject ?? t.body.split('\n')[0]}
        </Text>
      ),
    },
    { key: 'updated', title: 'Updated', render: (t) => <Text size="sm">{when(t.updated_at)}</Text> },
  ];
  return (
    <Card withBorder radius="md" padding={0}>
      <PagedTable
        query={asInfinite(list)}
        columns={columns}
        rowKey={(t) => t.key}
        label="Message templates"
        onRowClick={(t) => navigate(`/messages/templates/${encodeURIComponent(t.key)}`)}
        empty="No templates yet. Create one, then name its key in a flow's send_message step."
      />
    </Card>
  );
}

function MessageLog() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [status, setStatus] = useState<string | null>(null);
  const [template, setTemplate] = useState('');
  const [debounced] = useDebouncedValue(template.trim(), 300);
  const [open, setOpen] = useState<Message | null>(null);
  const list = useInfiniteQuery(
    trpc.messages.list.infiniteQueryOptions(
      {
        mode,
        ...(status ? { status: status as (typeof MESSAGE_STATUSES)[number] } : {}),
        ...(debounced ? { template: debounced } : {}),
      },
      { getNextPageParam: nextPage },
    ),
  );
  const columns: Column<Message>[] = [
    { key: 'at', title: 'Queued', render: (m) => <Text size="sm">{when(m.created_at)}</Text> },
    {
      key: 'template',
      title: 'Template',
      render: (m) => (
        <Text size="sm" ff="monospace">
          {m.template}
        </Text>
      ),
    },
    { key: 'channel', title: 'Channel', render: (m) => <ChannelBadge channel={m.channel} /> },
    {
      key: 'to',
      title: 'To',
      render: (m) => (
        <Stack gap={0}>
          <Text size="sm">{m.to ?? '—'}</Text>
          {m.participant && (
            <Text size="xs" c="dimmed">
              {m.participant.external_id}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      render: (m) => <Badge {...tone(STATUS_COLORS[m.status] ?? 'gray')}>{m.status}</Badge>,
    },
    {
      key: 'error',
      title: 'Error',
      render: (m) => (
        <Text size="sm" lineClamp={1} maw={280}>
          {m.error ?? ''}
        </Text>
      ),
    },
  ];
  return (
    <>
      <Card withBorder radius="md" padding="md" mb="md">
        <Group align="flex-end">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={180}
            data={MESSAGE_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
            value={status}
            onChange={setStatus}
          />
          <TextInput
            label="Template key"
            placeholder="e.g. welcome"
            w={240}
            value={template}
            onChange={(e) => setTemplate(e.currentTarget.value)}
          />
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <PagedTable
          query={asInfinite(list)}
          columns={columns}
          rowKey={(m) => m.id}
          label="Message log"
          onRowClick={setOpen}
          empty={
            status || debounced
              ? 'No message matches these filters.'
              : 'No messages yet. Flows with a send_message step fill this log.'
          }
        />
      </Card>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title="Message"
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open && (
          <Stack gap="sm">
            <Group gap="xs">
              <ChannelBadge channel={open.channel} />
              <Badge {...tone(STATUS_COLORS[open.status] ?? 'gray')}>{open.status}</Badge>
              <Text size="sm">
                to {open.to ?? '—'} · {when(open.created_at)} · {open.attempts} attempt
                {open.attempts === 1 ? '' : 's'}
              </Text>
            </Group>
            {open.error && (
              <Alert {...alertTone('red')} title="Error">
                {open.error}
              </Alert>
            )}
            {open.subject && (
              <Text size="sm">
                <b>Subject:</b> {open.subject}
              </Text>
            )}
            <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: 360, overflow: 'auto' }}>
              {open.body}
            </Code>
          </Stack>
        )}
      </Modal>
    </>
  );
}

function NewTemplate() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.messages.templates.create.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Template “${t.key}” created`);
        queryClient.invalidateQueries({ queryKey: trpc.messages.pathKey() });
        navigate(`/messages/templates/${encodeURIComponent(t.key)}`);
      },
      onError: notifyError,
    }),
  );
  return (
    <>
      <Anchor component={Link} to="/messages" size="sm">
        ← All templates
      </Anchor>
      <PageHeader title="New template" />
      <TemplateEditor
        initial={{ key: '', channel: 'email', subject: '', body: '' }}
        creating
        saving={create.isPending}
        error={create.error}
        onSave={(v) => create.mutate({ mode, key: v.key.trim(), ...templatePayload(v) })}
      />
    </>
  );
}

function EditTemplate() {
  const { key = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const template = useQuery(trpc.messages.templates.get.queryOptions({ mode, key }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.messages.pathKey() });
  const update = useMutation(
    trpc.messages.templates.update.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Template “${t.key}” saved`);
        invalidate();
      },
      onError: notifyError,
    }),
  );
  const remove = useMutation(
    trpc.messages.templates.delete.mutationOptions({
      onSuccess: () => {
        notifySuccess(`Template “${key}” deleted`);
        invalidate();
        navigate('/messages');
      },
      onError: notifyError,
    }),
  );
  return (
    <QueryState query={asQuery(template)}>
      {(t) => (
        <>
          <Anchor component={Link} to="/messages" size="sm">
            ← All templates
          </Anchor>
          <PageHeader
            title={t.key}
            description={`Updated ${when(t.updated_at)}. Flows send it by this key.`}
            actions={
              <ConfirmButton
                {...tone('red')}
                title={`Delete template “${t.key}”?`}
                message="Flows that send it will fail their send_message step until a template with this key exists again."
                confirmLabel="Delete"
                loading={remove.isPending}
                onConfirm={() => remove.mutate({ mode, key: t.key })}
              >
                Delete
              </ConfirmButton>
            }
          />
          <TemplateEditor
            key={t.updated_at}
            initial={{ key: t.key, channel: t.channel, subject: t.subject ?? '', body: t.body }}
            creating={false}
            saving={update.isPending}
            error={update.error}
            onSave={(v) => update.mutate({ mode, key: t.key, patch: templatePayload(v) })}
          />
        </>
      )}
    </QueryState>
  );
}

/** Field errors of a failed save, by field name. */
const fieldError = (error: unknown, field: string) =>
  error
    ? describeError(error).fields.find((f) => f.field === field || f.field.startsWith(`${field}.`))?.message
    : undefined;

function TemplateEditor({
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
  const [variables, setVariables] = useState(sampleVariablesText);
  const set = <K extends keyof TemplateFormValues>(k: K, value: TemplateFormValues[K]) =>
    setV((old) => ({ ...old, [k]: value }));
  const parsed = parseVariables(variables);
  return (
    <form
      aria-label={creating ? 'New template' : 'Edit template'}
      onSubmit={(e) => {
        e.preventDefault();
        onSave(v);
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
                error={fieldError(error, 'key')}
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
                  error={fieldError(error, 'subject')}
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
                error={fieldError(error, 'body')}
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

/** The preview, rendered by the service (`messages.preview`, the renderer sends use) as the form changes. */
function Preview({
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
  return (
    <Card withBorder radius="md" padding="lg" data-testid="template-preview">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="md">
          Preview
        </Title>
        {values.channel === 'email' && (
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
          {values.channel === 'email' && view === 'rendered' ? (
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
              display: values.channel === 'email' && view === 'rendered' ? 'none' : undefined,
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
