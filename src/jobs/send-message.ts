import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { sendMessage } from '../services/messages/send-message.ts';
import { jobPayloads } from './payloads.ts';
import { QUEUES, SEND_MESSAGE_QUEUE } from './queues.ts';

/**
 * Job `messages.send`: sends one live message (enqueued by `queueMessage` in the transaction
 * that recorded it). One job per fetch so a retry concerns only its own message; a few run at
 * once. A thrown error makes pg-boss retry; on the last attempt a surely-unsent message is
 * marked `failed` instead of thrown.
 */
export const sendMessageJob = {
  name: SEND_MESSAGE_QUEUE,
  // Retries are not NOTIFYed: the poll (every 2 s) is what picks them up once their delay has passed.
  options: { batchSize: 1, localConcurrency: 4, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    for (const job of jobs) {
      const { messageId } = jobPayloads[SEND_MESSAGE_QUEUE].parse(job.data);
      await sendMessage(ctx, messageId, {
        finalAttempt: job.retryCount >= QUEUES[SEND_MESSAGE_QUEUE].retryLimit,
      });
    }
  },
};
