/** pg-boss's schema (runtime.ts); the ingest statement embeds pg-boss's job insert and NOTIFY. */
export const PGBOSS_SCHEMA = 'pgboss';

/** Queue names, shared by the code that sends jobs and the workers that run them. */
export const PROCESS_EVENT_QUEUE = 'events.process';
export const EVENTS_DEAD_LETTER_QUEUE = 'events.dead-letter';
export const SEND_MESSAGE_QUEUE = 'messages.send';
export const RECOVER_REDEMPTION_QUEUE = 'rewards.recover-redemption';
export const DAILY_STATS_QUEUE = 'overview.daily-stats';
export const LIFECYCLE_QUEUE = 'maintenance.lifecycle';
export const RUN_EXPORT_QUEUE = 'exports.run';
export const EXPORTS_DEAD_LETTER_QUEUE = 'exports.dead-letter';
export const BACKFILL_BADGE_QUEUE = 'achievements.backfill';

/** Queue settings applied at start-up (idempotent), in this order (a dead letter queue first). */
export const QUEUES = {
  // `events.process` jobs whose retries ran out with no outcome recorded (fail-abandoned-events.ts).
  [EVENTS_DEAD_LETTER_QUEUE]: {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  [PROCESS_EVENT_QUEUE]: {
    deadLetter: EVENTS_DEAD_LETTER_QUEUE,
    notify: true,
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: 300,
    // A worker that dies mid-batch stops refreshing the heartbeat: its jobs are retried ~10-20 s
    // later (with the supervise interval in runtime.ts) rather than after expireInSeconds.
    heartbeatSeconds: 10,
  },
  // A send is claimed before the transport is called, so a retry after an unknown outcome never
  // re-sends (docs/guarantees.md#messages-at-most-once); retries cover transport errors that surely sent nothing.
  [SEND_MESSAGE_QUEUE]: {
    notify: true,
    retryLimit: 4,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  // Sent with a delay in the debit transaction of every external redemption; finishes or reverses
  // one whose request process died before recording the outcome (docs/guarantees.md#external-fulfilment).
  [RECOVER_REDEMPTION_QUEUE]: {
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  // Scheduled every minute (worker.ts): folds new rows into the overview's daily rollup. A missed
  // or failed run only leaves a longer tail for the overview to read; the next run catches up.
  [DAILY_STATS_QUEUE]: {
    retryLimit: 0,
    expireInSeconds: 600,
  },
  // The data lifecycle (jobs/run-lifecycle.ts), scheduled hourly. A run stops starting batches
  // after 50 minutes; a run that dies is not retried (the next hour's run carries on), and the
  // advisory lock keeps two from overlapping.
  [LIFECYCLE_QUEUE]: {
    retryLimit: 0,
    expireInSeconds: 3600,
    heartbeatSeconds: 60,
  },
  // `exports.run` jobs whose retries ran out with no outcome recorded (fail-abandoned-exports.ts).
  [EXPORTS_DEAD_LETTER_QUEUE]: {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  // Sent in the transaction that records an export (request-export.ts). A run that dies stops its
  // heartbeat and the export is run again from the start ~10-20 s later (run-export.ts); a run
  // is fenced, so the dead one's chunks are never served. An hour bounds a run of any size. When
  // every attempt died, the job goes to the dead letter queue, which marks the export failed.
  [RUN_EXPORT_QUEUE]: {
    deadLetter: EXPORTS_DEAD_LETTER_QUEUE,
    notify: true,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
    heartbeatSeconds: 10,
  },
  // Sent by `POST /v1/badges/{key}/backfill` (achievements/backfill.ts). Each chunk commits on its
  // own and awards a key+tier once, so a retry (or a second backfill) redoes only what is left.
  [BACKFILL_BADGE_QUEUE]: {
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 3600,
    heartbeatSeconds: 30,
  },
} as const;
