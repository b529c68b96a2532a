/** Queue names, shared by the code that sends jobs and the workers that run them. */
export const PROCESS_EVENT_QUEUE = 'events.process';

/** Queue settings applied at start-up (idempotent). */
export const QUEUES = {
  [PROCESS_EVENT_QUEUE]: {
    notify: true,
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: 300,
  },
} as const;
