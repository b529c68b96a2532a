import { notifications } from '@mantine/notifications';
import { describeError } from './trpc.ts';

export const notifySuccess = (message: string) => notifications.show({ color: 'teal', message });

/** A failed mutation, told in the service's words (with its field errors). */
export const notifyError = (error: unknown) => {
  const { message, fields } = describeError(error);
  notifications.show({
    color: 'red',
    title: message,
    message: fields.length ? fields.map((f) => `${f.field}: ${f.message}`).join('\n') : ' ',
    autoClose: 8_000,
  });
};
