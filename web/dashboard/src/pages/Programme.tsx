import {
  Button,
  Code,
  Grid,
  Group,
  NumberInput,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { durationHint } from '../components/durationHint.tsx';
import { FormSection } from '../components/FormSection.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../components/formErrors.ts';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { useMode } from '../mode.tsx';
import { notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import {
  CAP_PERIOD_LABELS,
  CAP_PERIODS,
  type CapPeriod,
  changedSettings,
  EXPIRY_CHOICES,
  type ExpiryChoice,
  nextFreePeriod,
  type Program,
  type ProgramForm,
  ROUND_TO_LABELS,
  type RoundTo,
  timeZones,
  toForm,
} from './programme/logic.ts';

/** The programme settings form over what is stored; saves only the settings that changed. */
function ProgramEditor({ stored }: { stored: Program }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ProgramForm>(() => toForm(stored));
  const set = <K extends keyof ProgramForm>(key: K, value: ProgramForm[K]) =>
    setForm((old) => ({ ...old, [key]: value }));
  const setCap = (i: number, cap: Partial<ProgramForm['caps'][number]>) =>
    set(
      'caps',
      form.caps.map((c, j) => (j === i ? { ...c, ...cap } : c)),
    );
  const zones = useMemo(() => timeZones(stored.timezone), [stored.timezone]);
  const patch = changedSettings(stored, form);
  const dirty = Object.keys(patch).length > 0;

  const shownFields = [
    'timezone',
    'points_expiry',
    'points_expiry.mode',
    'points_expiry.after',
    'points_expiry.round_to',
    'expiry_notice',
    'pending_for',
    'earning_caps',
    ...form.caps.flatMap((_, i) => [`earning_caps.${i}.period`, `earning_caps.${i}.max_points`]),
  ];
  const update = useMutation(
    trpc.points.updateProgram.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.points.program.queryKey({ mode }), saved);
        setForm(toForm(saved));
        notifySuccess('Programme saved');
      },
      onError: (error) => notifyUnlessShown(error, shownFields),
    }),
  );
  const err = (field: string) => fieldErrorOf(update.error, field);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (dirty) update.mutate({ mode, ...patch });
  };
  const freePeriod = nextFreePeriod(form.caps);

  return (
    <form onSubmit={submit} aria-label="Programme settings" noValidate>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <FormSection
              title="Points expiry"
              description="Whether and when earned points stop being spendable."
            >
              <Radio.Group
                label="Points expire"
                value={form.expiry}
                onChange={(v) => set('expiry', v as ExpiryChoice)}
                error={err('points_expiry') ?? err('points_expiry.mode')}
              >
                <Stack gap="xs" mt={6}>
                  {(Object.keys(EXPIRY_CHOICES) as ExpiryChoice[]).map((c) => (
                    <Radio
                      key={c}
                      value={c}
                      label={EXPIRY_CHOICES[c].label}
                      description={EXPIRY_CHOICES[c].hint}
                    />
                  ))}
                </Stack>
              </Radio.Group>
              {form.expiry !== 'off' && (
                <Group align="flex-start" grow>
                  <TextInput
                    label={form.expiry === 'fixed' ? 'Expire after' : 'Expire after no activity for'}
                    description={durationHint([
                      ['P12M', '12 months'],
                      ['P30D', '30 days'],
                    ])}
                    placeholder="P12M"
                    required
                    value={form.after}
                    onChange={(e) => set('after', e.currentTarget.value)}
                    error={err('points_expiry.after')}
                  />
                  {form.expiry === 'fixed' && (
                    <Select
                      label="Round up to"
                      description="In the programme’s time zone"
                      data={(Object.keys(ROUND_TO_LABELS) as RoundTo[]).map((r) => ({
                        value: r,
                        label: ROUND_TO_LABELS[r],
                      }))}
                      value={form.round_to}
                      allowDeselect={false}
                      onChange={(v) => v && set('round_to', v as RoundTo)}
                      error={err('points_expiry.round_to')}
                    />
                  )}
                </Group>
              )}
              <TextInput
                label="Expiry notice"
                description={
                  <>
                    How long before a lot expires <Code fz="inherit">points.expiring</Code> fires, e.g.{' '}
                    <Code fz="inherit">P14D</Code>
                  </>
                }
                placeholder="P14D"
                required
                value={form.expiry_notice}
                onChange={(e) => set('expiry_notice', e.currentTarget.value)}
                error={err('expiry_notice')}
              />
            </FormSection>
            <FormSection
              title="Earning caps"
              description="The most a participant can earn from flows per calendar period, in the programme’s time zone. An award that crosses a cap is cut to what is left."
            >
              {form.caps.length > 0 ? (
                <Table aria-label="Earning caps" verticalSpacing={6} withRowBorders={false}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Period</Table.Th>
                      <Table.Th>Maximum points</Table.Th>
                      <Table.Th w={90}>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {form.caps.map((cap, i) => (
                      <Table.Tr key={cap.period}>
                        <Table.Td>
                          <Select
                            aria-label={`Cap ${i + 1} period`}
                            data={CAP_PERIODS.filter(
                              (p) => p === cap.period || !form.caps.some((c) => c.period === p),
                            ).map((p) => ({ value: p, label: CAP_PERIOD_LABELS[p] }))}
                            value={cap.period}
                            allowDeselect={false}
                            onChange={(v) => v && setCap(i, { period: v as CapPeriod })}
                            error={err(`earning_caps.${i}.period`)}
                          />
                        </Table.Td>
                        <Table.Td>
                          <NumberInput
                            aria-label={`Cap ${i + 1} maximum points`}
                            min={1}
                            allowDecimal={false}
                            allowNegative={false}
                            thousandSeparator=","
                            value={cap.max_points}
                            onChange={(n) => setCap(i, { max_points: typeof n === 'number' ? n : '' })}
                            error={err(`earning_caps.${i}.max_points`)}
                          />
                        </Table.Td>
                        <Table.Td style={{ textAlign: 'right', verticalAlign: 'top' }}>
                          <Button
                            variant="default"
                            aria-label={`Remove the ${cap.period} cap`}
                            onClick={() =>
                              set(
                                'caps',
                                form.caps.filter((_, j) => j !== i),
                              )
                            }
                          >
                            Remove
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text size="sm" c="dimmed">
                  No caps: flows award points without a limit.
                </Text>
              )}
              {err('earning_caps') && (
                <Text size="sm" c="red.9" role="alert">
                  {err('earning_caps')}
                </Text>
              )}
              <Group>
                <Button
                  variant="default"
                  disabled={!freePeriod}
                  onClick={() =>
                    freePeriod && set('caps', [...form.caps, { period: freePeriod, max_points: '' }])
                  }
                >
                  Add cap
                </Button>
                {!freePeriod && (
                  <Text size="xs" c="dimmed">
                    Every period has a cap.
                  </Text>
                )}
              </Group>
            </FormSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <FormSection title="Calendar">
              <Select
                label="Time zone"
                description="Days, months and weeks (rounding and caps) begin and end in it."
                searchable
                data={zones}
                value={form.timezone}
                allowDeselect={false}
                nothingFoundMessage="No such time zone"
                onChange={(v) => v && set('timezone', v)}
                error={err('timezone')}
              />
            </FormSection>
            <FormSection
              title="Pending points"
              description="Flow-awarded points can wait before they are spendable."
            >
              <TextInput
                label="Pending period"
                description={durationHint([['P30D', '30 days']], '; empty: spendable at once')}
                placeholder="None"
                value={form.pending_for}
                onChange={(e) => set('pending_for', e.currentTarget.value)}
                error={err('pending_for')}
              />
              <Text size="xs" c="dimmed">
                A flow’s own <Code fz="inherit">pending_for</Code> on an{' '}
                <Code fz="inherit">award_points</Code> action overrides it.
              </Text>
            </FormSection>
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={!dirty || update.isPending}
                onClick={() => {
                  setForm(toForm(stored));
                  update.reset();
                }}
              >
                Discard changes
              </Button>
              <Button type="submit" disabled={!dirty} loading={update.isPending}>
                Save programme
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}

/** Programme (docs/dashboard.md#pages): expiry, pending period, earning caps and time zone of this mode. */
export default function Programme() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const program = useQuery(trpc.points.program.queryOptions({ mode }));
  return (
    <>
      <PageHeader
        title="Programme"
        description={`How points expire, wait and are capped in ${mode} mode. A change applies to points earned after it; points already earned keep their expiry.`}
      />
      <QueryState query={program}>{(p) => <ProgramEditor key={mode} stored={p} />}</QueryState>
    </>
  );
}
