import { Button, Checkbox, Group, Modal, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { useMode } from '../../mode.tsx';
import { notifyError } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { ABILITIES, ABILITY_HELP, type Ability, abilitiesToSend } from './logic.ts';

/** "Create key": name, mode and abilities; then the key, shown once. */
export function KeyForm({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const trpc = useTRPC();
  const { mode: currentMode } = useMode();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>(currentMode);
  const [all, setAll] = useState(true);
  const [picked, setPicked] = useState<string[]>([]);
  const [abilitiesError, setAbilitiesError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(
    trpc.keys.create.mutationOptions({
      onSuccess: (k) => {
        setSecret(k.key);
        onCreated();
      },
      onError: notifyError,
    }),
  );
  const close = () => {
    setSecret(null);
    setName('');
    setMode(currentMode);
    setAll(true);
    setPicked([]);
    setAbilitiesError(null);
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const abilities = abilitiesToSend(all, picked);
    if (!abilities) {
      setAbilitiesError('Pick at least one ability, or “All abilities”');
      return;
    }
    setAbilitiesError(null);
    create.mutate({ mode, name: name.trim() || undefined, abilities: abilities as Ability[] });
  };
  return (
    <Modal opened={opened} onClose={close} title={secret ? 'Key created' : 'Create an API key'} size="xl">
      {secret ? (
        <ShownOnce label="API key" secret={secret} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Name"
              description="What uses this key, e.g. “Checkout backend”"
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-autofocus
            />
            <Radio.Group label="Mode" value={mode} onChange={(v) => setMode(v as 'live' | 'test')}>
              <Group mt={6}>
                <Radio value="test" label="Test (svc_test_…): test data only" />
                <Radio value="live" label="Live (svc_live_…): live data" />
              </Group>
            </Radio.Group>
            <Checkbox
              label="All abilities"
              description="Full access, including abilities added later"
              checked={all}
              onChange={(e) => setAll(e.currentTarget.checked)}
            />
            <Checkbox.Group
              label="Abilities"
              value={all ? [...ABILITIES] : picked}
              onChange={(v) => {
                setPicked(v);
                setAbilitiesError(null);
              }}
              error={abilitiesError}
            >
              <SimpleGrid cols={2} mt={6} spacing="xs" verticalSpacing={8}>
                {ABILITIES.map((a) => (
                  <Checkbox
                    key={a}
                    value={a}
                    disabled={all}
                    label={
                      <Text size="sm" ff="monospace" span>
                        {a}
                      </Text>
                    }
                    description={ABILITY_HELP[a]}
                  />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
