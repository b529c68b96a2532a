import { notifications } from '@mantine/notifications';
import { describeError } from './trpc.ts';

/** The close button of a notification needs a name (axe: button-name). */
const closeButtonProps = { 'aria-label': 'Dismiss notification' };

export const notifySuccess = (message: string) =>
  notifications.show({ color: 'teal', message, closeButtonProps });

/** A failed mutation, told in the service's words (with its field errors). */
export const notifyError = (error: unknown) => {
  const { message, fields } = describeError(error);
  notifications.show({
    color: 'red',
    title: message,
    message: fields.length ? fields.map((f) => `${f.field}: ${f.message}`).join('\n') : ' ',
    autoClose: 8_000,
    closeButtonProps,
    // Mantine greys a titled notification's text with gray.6 (3.3:1 on white); gray.7 passes AA.
    styles: { description: { color: 'var(--mantine-color-gray-7)' } },
  });
};
