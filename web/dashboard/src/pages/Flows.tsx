import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Code,
  Group,
  NumberInput,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type FormEvent, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import type { AppRouter } from '../../../../src/trpc/router.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { RunSteps, StatusBadge } from '../components/FlowRuns.tsx';
import { Nowrap } from '../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import { useEventTypeSuggestions } from '../components/useEventTypes.ts';
import { formatDateTime, shortId } from '../lib/format.ts';
import { errorsByField, parseJsonField, prettyJson } from '../lib/json-logic.ts';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { describeError, useTRPC } from '../trpc.ts';
import {
  describeTrigger,
  type TriggerDraft,
  type TriggerKind,
  triggerBody,
  triggerDraftOf,
  triggerErrors,
  triggerFieldOf,
} from './flows/trigger.ts';

type Flow = inferRouterOutputs<AppRouter>['flows']['get'];

const EXAMPLE_ACTIONS = '[\n  { "type": "award_points", "points": 10, "reason": "Order completed" }\n]';
const EXAMPLE_CONDITIONS = '{ ">=": [{ "var": "payload.amount" }, 50] }';
/** The service's field names this form shows errors beside. */
const FORM_FIELDS = [
  'name',
  'event_type',
  'trigger',
  'trigger.after',
  'trigger.event_types',
  'conditions',
  'actions',
  'active',
  'max_runs_per_participant',
];
const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } };

/** Runs of one flow (or of every flow), newest first, each with its steps. */
function RunsTable({ flowId }: { flowId?: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [open, setOpen] = useState<string | null>(null);
  const query = useInfiniteQuery(
    trpc.flows.runs.list.infiniteQueryOptions(
      { mode, limit: 20, ...(flowId ? { flow_id: flowId } : {}) },
      { getNextPageParam: nextPage },
    ),
  );
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  const opened = rows.find((r) => r.id === open);
  return (
    <>
      <PagedTable
        label="Flow runs"
        query={query}
        rowKey={(r) => r.id}
        onRowClick={(r) => setOpen(open === r.id ? null : r.id)}
        empty="No runs yet: a run is recorded when a matching event is processed, or an inactive participant is found."
        columns={[
          { key: 'status', title: 'Status', width: 110, render: (r) => <StatusBadge status={r.status} /> },
          {
            key: 'id',
            title: 'Run',
            render: (r) => (
              <Anchor
                component="button"
                type="button"
                size="sm"
                ff="monospace"
                c="indigo.9"
                aria-expanded={open === r.id}
              >
                {shortId(r.id, 18)}
              </Anchor>
            ),
          },
          { key: 'participant', title: 'Participant', render: (r) => r.participant.external_id },
          {
            key: 'steps',
            title: 'Steps',
            render: (r) => (
              <Group gap={4}>
                {r.steps.map((s, i) => (
                  <Badge
                    // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional and never reordered
                    key={i}
                    size="xs"
                    variant="dot"
                    color={s.status === 'completed' ? 'teal' : s.status === 'failed' ? 'red' : 'gray'}
                  >
                    {s.action}
                  </Badge>
                ))}
              </Group>
            ),
          },
          {
            key: 'started',
            title: 'Started',
            width: 200,
            render: (r) => <Nowrap>{formatDateTime(r.started_at)}</Nowrap>,
          },
        ]}
      />
      {opened && (
        <Paper withBorder radius="md" p="sm" mt="sm" data-testid="run-steps">
          <Text size="sm" fw={600} mb={4}>
            Steps of run {shortId(opened.id, 18)}
          </Text>
          <RunSteps run={opened} />
        </Paper>
      )}
    </>
  );
}

function FlowList() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const query = useInfiniteQuery(
    trpc.flows.list.infiniteQueryOptions({ mode, limit: 50 }, { getNextPageParam: nextPage }),
  );
  return (
    <>
      <PageHeader
        title="Flows"
        description="Rules that turn events, or a participant’s inactivity, into points, badges and messages."
        actions={
          <Button component={Link} to="new">
            New flow
          </Button>
        }
      />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="md">
          <PagedTable
            label="Flows"
            query={query}
            rowKey={(f) => f.id}
            onRowClick={(f) => navigate(f.id)}
            empty="No flows yet. Create one to award points when events arrive."
            columns={[
              {
                key: 'name',
                title: 'Name',
                render: (f) => (
                  <Anchor
                    component={Link}
                    to={f.id}
                    fw={600}
                    size="sm"
                    c="indigo.9"
                    onClick={(e) => e.stopPropagation()}
                  >
                    {f.name}
                  </Anchor>
                ),
              },
              {
                key: 'when',
                title: 'When',
                render: (f) =>
                  f.trigger ? (
                    <Group gap={6} wrap="nowrap">
                      <ToneBadge size="sm" color="grape">
                        inactivity
                      </ToneBadge>
                      <Text size="sm">{describeTrigger(f)}</Text>
                    </Group>
                  ) : (
                    <Code>{f.event_type}</Code>
                  ),
              },
              {
                key: 'actions',
                title: 'Actions',
                render: (f) => f.actions.map((a) => a.type.replace('_', ' ')).join(', '),
              },
              {
                key: 'active',
                title: 'Status',
                width: 100,
                render: (f) => (
                  <ToneBadge size="sm" color={f.active ? 'teal' : 'gray'}>
                    {f.active ? 'active' : 'paused'}
                  </ToneBadge>
                ),
              },
              {
                key: 'updated',
                title: 'Updated',
                width: 200,
                render: (f) => <Nowrap>{formatDateTime(f.updated_at)}</Nowrap>,
              },
            ]}
          />
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Title order={3} fz="md" mb="sm">
            Recent runs
          </Title>
          <RunsTable />
        </Paper>
      </Stack>
    </>
  );
}

interface Draft extends TriggerDraft {
  name: string;
  conditions: string;
  actions: string;
  active: boolean;
  maxRuns: number | string;
}

const draftOf = (f?: Flow): Draft => ({
  name: f?.name ?? '',
  ...triggerDraftOf(f),
  conditions: f ? prettyJson(f.conditions) : '',
  actions: f ? prettyJson(f.actions) : EXAMPLE_ACTIONS,
  active: f?.active ?? true,
  maxRuns: f?.max_runs_per_participant ?? '',
});

function FlowForm({ flow }: { flow?: Flow }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [d, setD] = useState<Draft>(() => draftOf(flow));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const suggestions = useEventTypeSuggestions();
  const onError = (error: unknown) => {
    const { fields } = describeError(error);
    // Field errors show beside their fields (not repeated in a notification); anything else as a notification.
    const named = fields.map((f) => ({ ...f, field: f.field.replace(/^patch\./, '') }));
    // A trigger's errors show on its own inputs (`trigger.after`), the rest by top-level field.
    const byField = errorsByField(named.filter((f) => !triggerFieldOf(f.field)));
    for (const f of named) {
      const input = triggerFieldOf(f.field);
      if (!input) continue;
      const message = f.field === input ? f.message : `${f.field}: ${f.message}`;
      byField[input] = byField[input] ? `${byField[input]}; ${message}` : message;
    }
    setErrors(byField);
    if (!fields.length || Object.keys(byField).some((k) => !FORM_FIELDS.includes(k))) notifyError(error);
  };
  const saved = (f: Flow, verb: string) => {
    notifySuccess(`Flow “${f.name}” ${verb}`);
    queryClient.invalidateQueries({ queryKey: trpc.flows.pathKey() });
    setErrors({});
    if (!flow) navigate(`../${f.id}`, { relative: 'path' });
  };
  const create = useMutation(
    trpc.flows.create.mutationOptions({ onSuccess: (f) => saved(f, 'created'), onError }),
  );
  const update = useMutation(
    trpc.flows.update.mutationOptions({ onSuccess: (f) => saved(f, 'saved'), onError }),
  );
  const remove = useMutation(
    trpc.flows.delete.mutationOptions({
      onSuccess: () => {
        notifySuccess('Flow deleted');
        queryClient.invalidateQueries({ queryKey: trpc.flows.pathKey() });
        navigate('/flows');
      },
      onError: notifyError,
    }),
  );
  const conditionsCheck = parseJsonField(d.conditions, { allowBlank: true, expect: 'object' });
  const actionsCheck = parseJsonField(d.actions, { expect: 'array' });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!d.name.trim()) local.name = 'Required';
    Object.assign(local, triggerErrors(d));
    if (!conditionsCheck.ok) local.conditions = conditionsCheck.error;
    if (!actionsCheck.ok) local.actions = actionsCheck.error;
    setErrors(local);
    if (Object.keys(local).length || !conditionsCheck.ok || !actionsCheck.ok) return;
    const body = {
      name: d.name,
      ...triggerBody(d),
      conditions: conditionsCheck.value as Record<string, unknown> | null,
      actions: actionsCheck.value as Flow['actions'],
      active: d.active,
      max_runs_per_participant: d.maxRuns === '' ? null : Number(d.maxRuns),
    };
    if (flow) update.mutate({ mode, id: flow.id, patch: body });
    else create.mutate({ mode, ...body });
  };
  // Parse problems show while typing; the service's own messages after a save.
  const liveConditions = !conditionsCheck.ok && d.conditions.trim() ? conditionsCheck.error : undefined;
  const liveActions = !actionsCheck.ok ? actionsCheck.error : undefined;
  return (
    <form onSubmit={submit} aria-label={flow ? 'Edit flow' : 'New flow'}>
      <Stack gap="md">
        <TextInput
          label="Name"
          withAsterisk
          value={d.name}
          onChange={(e) => setD({ ...d, name: e.currentTarget.value })}
          error={errors.name}
        />
        <Radio.Group
          label="When"
          value={d.kind}
          onChange={(v) => setD({ ...d, kind: v as TriggerKind })}
          error={errors.trigger}
        >
          <Group gap="lg" mt={6}>
            <Radio value="event" label="An event of a type arrives" />
            <Radio value="inactivity" label="A participant has been inactive for a while" />
          </Group>
        </Radio.Group>
        {d.kind === 'event' ? (
          <TextInput
            label="Event type"
            withAsterisk
            placeholder="order.completed"
            value={d.eventType}
            onChange={(e) => setD({ ...d, eventType: e.currentTarget.value })}
            error={errors.event_type}
          />
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label="Inactive for"
              description={
                <>
                  ISO 8601, e.g. <Code fz="inherit">P30D</Code> (30 days), <Code fz="inherit">PT12H</Code> (12
                  hours). Runs once per idle spell, again only after a new event.
                </>
              }
              withAsterisk
              placeholder="P30D"
              value={d.after}
              onChange={(e) => setD({ ...d, after: e.currentTarget.value })}
              error={errors['trigger.after']}
            />
            <TagsInput
              label="Of event types"
              description="The events that count as activity. Empty: any event. Press Enter after each."
              placeholder={d.activityTypes.length ? undefined : 'Any event'}
              data={suggestions}
              value={d.activityTypes}
              onChange={(v) => setD({ ...d, activityTypes: v })}
              error={errors['trigger.event_types']}
              splitChars={[',', ' ']}
              clearable
            />
          </SimpleGrid>
        )}
        <Textarea
          label="Conditions (JSON Logic)"
          description={
            d.kind === 'event' ? (
              <>
                Over <Code>event</Code>, <Code>payload</Code>, <Code>participant</Code>, plus{' '}
                <Code>{'{"event_count": "<type>"}'}</Code>. Blank = always. Example:{' '}
                <Code>{EXAMPLE_CONDITIONS}</Code>
              </>
            ) : (
              <>
                Over <Code>participant</Code> (there is no payload; <Code>event.type</Code> is{' '}
                <Code>inactivity</Code>), plus <Code>{'{"event_count": "<type>"}'}</Code>. Blank = always.
              </>
            )
          }
          autosize
          minRows={4}
          maxRows={16}
          spellCheck={false}
          styles={mono}
          value={d.conditions}
          onChange={(e) => setD({ ...d, conditions: e.currentTarget.value })}
          error={errors.conditions ?? liveConditions}
        />
        <Textarea
          label="Actions (JSON)"
          withAsterisk
          description={
            <>
              Run in order: <Code>award_points</Code> (<Code>points</Code>, <Code>reason</Code>),{' '}
              <Code>award_badge</Code> (<Code>badge</Code>, <Code>tier</Code>), <Code>send_message</Code> (
              <Code>template</Code>).
            </>
          }
          autosize
          minRows={4}
          maxRows={20}
          spellCheck={false}
          styles={mono}
          value={d.actions}
          onChange={(e) => setD({ ...d, actions: e.currentTarget.value })}
          error={errors.actions ?? liveActions}
        />
        <Group gap="xl" align="flex-end">
          <NumberInput
            label="Max runs per participant"
            description="Blank = unlimited"
            allowDecimal={false}
            min={1}
            value={d.maxRuns}
            onChange={(v) => setD({ ...d, maxRuns: v })}
            error={errors.max_runs_per_participant}
            w={220}
          />
          <Switch
            label="Active"
            checked={d.active}
            onChange={(e) => setD({ ...d, active: e.currentTarget.checked })}
            mb={8}
          />
        </Group>
        <Group justify="space-between">
          <Group>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {flow ? 'Save flow' : 'Create flow'}
            </Button>
            <Button variant="default" component={Link} to="/flows">
              Cancel
            </Button>
          </Group>
          {flow && (
            <ConfirmButton
              variant="subtle"
              color="red"
              title="Delete this flow?"
              message="It stops running on new events. Its past runs are kept."
              confirmLabel="Delete flow"
              loading={remove.isPending}
              onConfirm={() => remove.mutate({ mode, id: flow.id })}
            >
              Delete flow
            </ConfirmButton>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function Crumbs({ current }: { current: string }) {
  return (
    <Breadcrumbs mb="xs" fz="sm">
      <Anchor component={Link} to="/flows">
        Flows
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}

function NewFlow() {
  return (
    <>
      <Crumbs current="New flow" />
      <PageHeader
        title="New flow"
        description="When an event of a type arrives, or a participant has been inactive for a while, and the conditions hold, run the actions."
      />
      <Paper withBorder radius="md" p="md">
        <FlowForm />
      </Paper>
    </>
  );
}

function EditFlow() {
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const query = useQuery(trpc.flows.get.queryOptions({ mode, id }));
  return (
    <QueryState query={query}>
      {(flow) => (
        <>
          <Crumbs current={flow.name} />
          <PageHeader
            title={flow.name}
            description={
              flow.trigger
                ? `Runs once per participant after ${describeTrigger(flow)}.`
                : `Runs on ${describeTrigger(flow)}.`
            }
          />
          <Stack gap="lg">
            <Paper withBorder radius="md" p="md">
              <FlowForm key={flow.updated_at} flow={flow} />
            </Paper>
            <Paper withBorder radius="md" p="md">
              <Title order={3} fz="md" mb="sm">
                Runs
              </Title>
              <RunsTable flowId={flow.id} />
            </Paper>
          </Stack>
        </>
      )}
    </QueryState>
  );
}

export default function Flows() {
  return (
    <Routes>
      <Route index element={<FlowList />} />
      <Route path="new" element={<NewFlow />} />
      <Route path=":id" element={<EditFlow />} />
    </Routes>
  );
}
