import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { type LevelForm, moveLevel } from './logic.ts';

/** The service takes at most this many levels. */
export const MAX_LEVELS = 20;

/**
 * The levels as editable rows, in threshold order: key, name, threshold, earn multiplier and
 * description, each with the service's error beside it (`levels.<i>.<field>`); a level moves up or
 * down a row or is removed.
 */
export function LevelsTable({
  levels,
  onChange,
  err,
}: {
  levels: LevelForm[];
  onChange: (levels: LevelForm[]) => void;
  err: (field: string) => string | undefined;
}) {
  const set = (i: number, patch: Partial<LevelForm>) =>
    onChange(levels.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const label = (l: LevelForm, i: number) => l.name.trim() || l.key.trim() || `level ${i + 1}`;
  return (
    <Table aria-label="Levels" verticalSpacing={6} withRowBorders={false}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={28}>#</Table.Th>
          <Table.Th w={140}>Key</Table.Th>
          <Table.Th w={160}>Name</Table.Th>
          <Table.Th w={150}>Threshold</Table.Th>
          <Table.Th w={140}>Earn multiplier</Table.Th>
          <Table.Th>Description</Table.Th>
          <Table.Th w={170}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {levels.map((l, i) => (
          <Table.Tr key={l.id} style={{ verticalAlign: 'top' }} data-testid="level-row">
            <Table.Td>
              <Text size="sm" c="dimmed" mt={7}>
                {i + 1}
              </Text>
            </Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`Level ${i + 1} key`}
                placeholder="gold"
                value={l.key}
                onChange={(e) => set(i, { key: e.currentTarget.value })}
                error={err(`levels.${i}.key`)}
              />
            </Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`Level ${i + 1} name`}
                placeholder="Gold"
                value={l.name}
                onChange={(e) => set(i, { name: e.currentTarget.value })}
                error={err(`levels.${i}.name`)}
              />
            </Table.Td>
            <Table.Td>
              <NumberInput
                aria-label={`Level ${i + 1} threshold`}
                placeholder={i === 0 ? '0' : 'Points'}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                thousandSeparator=","
                value={l.threshold}
                onChange={(n) => set(i, { threshold: typeof n === 'number' ? n : '' })}
                error={err(`levels.${i}.threshold`)}
              />
            </Table.Td>
            <Table.Td>
              <NumberInput
                aria-label={`Level ${i + 1} earn multiplier`}
                min={1}
                max={10}
                step={0.1}
                decimalScale={2}
                allowNegative={false}
                prefix="×"
                placeholder="×1"
                value={l.earn_multiplier}
                onChange={(n) => set(i, { earn_multiplier: typeof n === 'number' ? n : '' })}
                error={err(`levels.${i}.earn_multiplier`)}
              />
            </Table.Td>
            <Table.Td>
              <Textarea
                aria-label={`Level ${i + 1} description`}
                placeholder="What members of this level get"
                autosize
                minRows={1}
                maxRows={4}
                value={l.description}
                onChange={(e) => set(i, { description: e.currentTarget.value })}
                error={err(`levels.${i}.description`)}
              />
            </Table.Td>
            <Table.Td>
              <Group gap={6} justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="default"
                  size="input-sm"
                  aria-label={`Move ${label(l, i)} up`}
                  disabled={i === 0}
                  onClick={() => onChange(moveLevel(levels, i, i - 1))}
                >
                  ↑
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="input-sm"
                  aria-label={`Move ${label(l, i)} down`}
                  disabled={i === levels.length - 1}
                  onClick={() => onChange(moveLevel(levels, i, i + 1))}
                >
                  ↓
                </ActionIcon>
                <Button
                  variant="default"
                  aria-label={`Remove ${label(l, i)}`}
                  disabled={levels.length === 1}
                  onClick={() => onChange(levels.filter((_, j) => j !== i))}
                >
                  Remove
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
