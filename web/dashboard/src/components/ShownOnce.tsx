import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { alertTone } from '../pages/rewards/tone.ts';

/**
 * A secret (API key, signing secret) shown once, right after it was made: it lives in this
 * component's props only, is never written to storage, and is gone when the dialog closes.
 */
export function ShownOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <Alert {...alertTone('yellow')} title={`${label}: shown once`} data-testid="shown-once">
      <Stack gap="sm">
        <Text size="sm">
          Copy it now. It is not stored in this browser and the service will not show it again.
        </Text>
        <Code block data-testid="secret-value" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" color={copied ? 'teal' : 'indigo'} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
