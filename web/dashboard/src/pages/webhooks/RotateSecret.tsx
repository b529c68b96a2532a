import { Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FormSection } from '../../components/FormSection.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import { graceSecondsOf, MAX_GRACE_HOURS, type SecretRotated, type Subscription } from './logic.ts';

/**
 * Secret rotation (docs/webhooks.md#rotation): a new signing secret, shown once; the old one keeps
 * signing beside it for the grace, so receivers switch without losing a delivery.
 */
export function RotateSecret({ sub }: { sub: Subscription }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [hours, setHours] = useState<number | string>(24);
  const [graceError, setGraceError] = useState<string | null>(null);
  // The new secret lives in this component's state only, and is dropped when the dialog closes.
  const [rotated, setRotated] = useState<SecretRotated | null>(null);
  const rotate = useMutation(
    trpc.webhooks.subscriptions.rotateSecret.mutationOptions({
      onSuccess: setRotated,
      onError: (error) => notifyUnlessShown(error, ['grace_seconds']),
    }),
  );
  const grace = graceSecondsOf(hours);

  const confirm = () => {
    if ('error' in grace) {
      setGraceError(grace.error);
      return;
    }
    setGraceError(null);
    rotate.mutate({ mode, id: sub.id, grace_seconds: grace.grace_seconds });
  };
  const close = () => {
    setRotated(null);
    rotate.reset();
  };

  return (
    <FormSection
      title="Signing secret"
      description="Rotate it when it may have leaked, or on a schedule. Every delivery is signed with the new secret and, during the grace, also with the old one: receivers can switch without missing a delivery."
    >
      <NumberInput
        label="The old secret keeps signing for"
        description={`Hours, 0 to ${MAX_GRACE_HOURS} (a week). 0 stops it at once.`}
        rightSection={
          <Text size="sm" c="dimmed" pr="md">
            hours
          </Text>
        }
        rightSectionWidth={70}
        min={0}
        max={MAX_GRACE_HOURS}
        allowNegative={false}
        // Not clamped: a value out of range is shown as the error it is, not silently changed.
        clampBehavior="none"
        value={hours}
        onChange={(v) => {
          setHours(v);
          setGraceError(null);
        }}
        error={graceError ?? fieldErrorOf(rotate.error, 'grace_seconds')}
      />
      <Group justify="flex-end">
        <ConfirmButton
          color="indigo"
          title="Rotate the signing secret?"
          message={
            'error' in grace ? (
              grace.error
            ) : grace.grace_seconds === 0 ? (
              <>
                The current secret stops signing <b>at once</b>: receivers that still verify with it reject
                every delivery until they have the new one.
              </>
            ) : (
              <>
                The current secret keeps signing beside the new one for <b>{hours} hours</b>. Give the new
                secret to your receivers within that time.
              </>
            )
          }
          confirmLabel="Rotate secret"
          loading={rotate.isPending}
          onConfirm={confirm}
        >
          Rotate secret
        </ConfirmButton>
      </Group>
      <Modal
        opened={rotated !== null}
        onClose={close}
        title="Secret rotated"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {rotated && (
          <Stack gap="md">
            <ShownOnce label="New signing secret" secret={rotated.secret} onDone={close} />
            <Text size="sm" data-testid="previous-expires">
              {Date.parse(rotated.previous_expires_at) <= Date.now() + 1000 ? (
                'The previous secret no longer signs deliveries.'
              ) : (
                <>
                  The previous secret keeps signing until <b>{formatDateTime(rotated.previous_expires_at)}</b>
                  .
                </>
              )}
            </Text>
          </Stack>
        )}
      </Modal>
    </FormSection>
  );
}
