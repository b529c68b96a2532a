import {
  Autocomplete,
  Button,
  Group,
  NumberInput,
  Select,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { ACTION_TYPE_LABELS, type ActionRow, type ActionType, blankAction } from './logic.ts';

/** The service takes at most this many actions per side. */
export const MAX_ACTIONS = 10;

/**
 * One side's actions (the friend's or the advocate's) as editable rows: points with a reason, or
 * a badge with a tier; each input with the service's error beside it (`<list>.<i>.<field>`).
 */
export function ActionsTable({
  list,
  who,
  rows,
  onChange,
  err,
  badges,
}: {
  list: 'friend_actions' | 'advocate_actions';
  /** "Friend" or "Advocate": the rows' accessible names start with it. */
  who: string;
  rows: ActionRow[];
  onChange: (rows: ActionRow[]) => void;
  err: (field: string) => string | undefined;
  /** Badge keys of the catalogue, offered while typing one (a new key creates the badge). */
  badges: string[];
}) {
  const set = (i: number, patch: Partial<ActionRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const name = (i: number, field: string) => `${who} action ${i + 1} ${field}`;
  const listError = err(list);
  return (
    <>
      {rows.length > 0 ? (
        <Table aria-label={`${who} actions`} verticalSpacing={6} withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={130}>Gives</Table.Th>
              <Table.Th w={200}>Amount or badge</Table.Th>
              <Table.Th>Reason or tier</Table.Th>
              <Table.Th w={100}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => {
              const at = (field: string) => err(`${list}.${i}.${field}`);
              return (
                <Table.Tr key={r.id} style={{ verticalAlign: 'top' }} data-testid={`${list}-row`}>
                  <Table.Td>
                    <Select
                      aria-label={name(i, 'type')}
                      data={(Object.keys(ACTION_TYPE_LABELS) as ActionType[]).map((t) => ({
                        value: t,
                        label: ACTION_TYPE_LABELS[t],
                      }))}
                      value={r.type}
                      allowDeselect={false}
                      onChange={(v) => v && set(i, { type: v as ActionType })}
                      error={at('type') ?? err(`${list}.${i}`)}
                    />
                  </Table.Td>
                  {r.type === 'award_points' ? (
                    <>
                      <Table.Td>
                        <NumberInput
                          aria-label={name(i, 'points')}
                          placeholder="Points"
                          min={1}
                          allowDecimal={false}
                          allowNegative={false}
                          thousandSeparator=","
                          value={r.points}
                          onChange={(n) => set(i, { points: typeof n === 'number' ? n : '' })}
                          error={at('points')}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          aria-label={name(i, 'reason')}
                          placeholder="Reason (optional)"
                          value={r.reason}
                          onChange={(e) => set(i, { reason: e.currentTarget.value })}
                          error={at('reason')}
                        />
                      </Table.Td>
                    </>
                  ) : (
                    <>
                      <Table.Td>
                        <Autocomplete
                          aria-label={name(i, 'badge')}
                          placeholder="Badge key"
                          data={badges}
                          value={r.badge}
                          onChange={(v) => set(i, { badge: v })}
                          error={at('badge')}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          aria-label={name(i, 'tier')}
                          placeholder="Tier (optional)"
                          value={r.tier}
                          onChange={(e) => set(i, { tier: e.currentTarget.value })}
                          error={at('tier')}
                        />
                      </Table.Td>
                    </>
                  )}
                  <Table.Td style={{ textAlign: 'right' }}>
                    <Button
                      variant="default"
                      aria-label={`Remove ${who.toLowerCase()} action ${i + 1}`}
                      onClick={() => onChange(rows.filter((_, j) => j !== i))}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {listError && (
        <Text size="sm" c="red.9" role="alert">
          {listError}
        </Text>
      )}
      <Group gap="xs">
        <Button
          variant="default"
          disabled={rows.length >= MAX_ACTIONS}
          aria-label={`Add points for the ${who.toLowerCase()}`}
          onClick={() => onChange([...rows, blankAction('award_points')])}
        >
          Add points
        </Button>
        <Button
          variant="default"
          disabled={rows.length >= MAX_ACTIONS}
          aria-label={`Add badge for the ${who.toLowerCase()}`}
          onClick={() => onChange([...rows, blankAction('award_badge')])}
        >
          Add badge
        </Button>
      </Group>
    </>
  );
}
