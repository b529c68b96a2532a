import {
  Alert,
  Button,
  FileInput,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { formatBytes } from './reward-form.ts';
import { alertTone } from './tone.ts';
import { UploadError, type UploadResult, uploadCodeFile } from './upload.ts';

const nf = new Intl.NumberFormat('en');

/** What an import did: the counts the service answered. */
function ImportSummary({ result }: { result: UploadResult }) {
  return (
    <Alert {...alertTone('teal')} title="Codes imported" role="status" data-testid="import-result">
      <SimpleGrid cols={3}>
        <Stat label="Imported" value={result.imported} />
        <Stat label="Skipped duplicates" value={result.skipped_duplicates} />
        <Stat label="Codes available" value={result.stock_remaining} />
      </SimpleGrid>
    </Alert>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" fw={600} tt="uppercase" c="dark.6">
        {label}
      </Text>
      <Text fz="lg" fw={700} data-testid={`stat-${label.toLowerCase().replaceAll(' ', '-')}`}>
        {nf.format(value)}
      </Text>
    </div>
  );
}

function UploadErrorNotice({ error }: { error: unknown }) {
  const e = error instanceof UploadError ? error : null;
  return (
    <Alert {...alertTone('red')} title="Nothing was imported" role="alert">
      <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>
      {e?.fields.map((f) => (
        <Text size="sm" key={`${f.field}:${f.message}`}>
          <b>{f.field}</b>: {f.message}
        </Text>
      ))}
    </Alert>
  );
}

/** A voucher or digital-asset reward's pool: import a file, paste codes, or generate a batch. */
export function CodePool({ rewardId }: { rewardId: number }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.rewards.pathKey() });

  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (f: File) => uploadCodeFile(rewardId, f, mode),
    onSuccess: (r) => {
      notifySuccess(`${nf.format(r.imported)} codes imported`);
      refresh();
    },
  });

  const [text, setText] = useState('');
  const [format, setFormat] = useState<'text' | 'csv'>('text');
  const paste = useMutation(
    trpc.rewards.importCodesText.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(`${nf.format(r.imported)} codes imported`);
        setText('');
        refresh();
      },
      onError: notifyError,
    }),
  );

  const [count, setCount] = useState<number | ''>(100);
  const [prefix, setPrefix] = useState('');
  const [length, setLength] = useState<number | ''>(10);
  const generate = useMutation(
    trpc.rewards.generateCodes.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(`${nf.format(r.generated)} codes generated`);
        refresh();
      },
      onError: notifyError,
    }),
  );

  return (
    <Tabs defaultValue="file" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="file">Upload a file</Tabs.Tab>
        <Tabs.Tab value="paste">Paste codes</Tabs.Tab>
        <Tabs.Tab value="generate">Generate a batch</Tabs.Tab>
      </Tabs.List>

      <Tabs.Panel value="file">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            A CSV (first column; a header row reading “code” is skipped) or a TXT file with one code per line,
            up to 200,000 codes. Blank lines are ignored and duplicates skipped. All or nothing.
          </Text>
          <Group align="flex-end">
            <FileInput
              label="Code file"
              placeholder="Choose a .csv or .txt file"
              accept=".csv,.txt,text/csv,text/plain"
              clearable
              clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
              value={file}
              onChange={(f) => {
                setFile(f);
                upload.reset();
              }}
              style={{ flex: 1 }}
              description={file ? `${file.name} · ${formatBytes(file.size)}` : undefined}
            />
            <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
              Upload and import
            </Button>
          </Group>
          {upload.data && <ImportSummary result={upload.data} />}
          {upload.error && <UploadErrorNotice error={upload.error} />}
        </Stack>
      </Tabs.Panel>

      <Tabs.Panel value="paste">
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Pasted format"
            w="fit-content"
            value={format}
            onChange={(f) => setFormat(f as 'text' | 'csv')}
            data={[
              { label: 'One per line', value: 'text' },
              { label: 'CSV', value: 'csv' },
            ]}
          />
          <Textarea
            label="Codes"
            autosize
            minRows={5}
            maxRows={14}
            placeholder={format === 'csv' ? 'code,batch\nSUMMER-001,A' : 'SUMMER-001\nSUMMER-002'}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Group>
            <Button
              disabled={!text.trim()}
              loading={paste.isPending}
              onClick={() => paste.mutate({ mode, id: rewardId, text, format })}
            >
              Import pasted codes
            </Button>
          </Group>
          {paste.data && <ImportSummary result={paste.data} />}
        </Stack>
      </Tabs.Panel>

      <Tabs.Panel value="generate">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Random codes from a cryptographic source, without look-alike characters (0/O, 1/I/L). Never
            collides with a code already in the pool.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="How many"
              required
              min={1}
              max={100_000}
              allowDecimal={false}
              thousandSeparator=","
              value={count}
              onChange={(n) => setCount(typeof n === 'number' ? n : '')}
            />
            <TextInput
              label="Prefix"
              placeholder="SUMMER-"
              value={prefix}
              onChange={(e) => setPrefix(e.currentTarget.value)}
            />
            <NumberInput
              label="Random characters"
              min={6}
              max={32}
              allowDecimal={false}
              value={length}
              onChange={(n) => setLength(typeof n === 'number' ? n : '')}
            />
          </SimpleGrid>
          <Group>
            <Button
              loading={generate.isPending}
              disabled={count === ''}
              onClick={() =>
                generate.mutate({
                  mode,
                  id: rewardId,
                  count: count === '' ? 0 : count,
                  ...(prefix ? { prefix } : {}),
                  ...(length === '' ? {} : { length }),
                })
              }
            >
              Generate codes
            </Button>
          </Group>
          {generate.data && (
            <Alert {...alertTone('teal')} title="Codes generated" role="status" data-testid="generate-result">
              <SimpleGrid cols={2}>
                <Stat label="Generated" value={generate.data.generated} />
                <Stat label="Codes available" value={generate.data.stock_remaining} />
              </SimpleGrid>
            </Alert>
          )}
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
