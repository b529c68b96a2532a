import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './helpers.ts';

/**
 * The path past one database (docs/deploying.md): Citus distributes tables by a column, and a
 * distributed table's primary key and unique indexes must contain that column. Ours is
 * `workspace_id`. This test reads the catalog of a migrated database and holds the schema to that
 * rule, with an explicit allow-list of what does not follow it yet and why. A new table or unique
 * index without `workspace_id` fails here until it gets the column or an entry with its reason;
 * an entry whose exception is gone fails too, so the list only shrinks.
 *
 * Today most primary keys are a surrogate `id` alone (uuid7 or a bigint identity): unique across
 * the whole deployment by construction, so nothing breaks on one database, but each becomes
 * `(workspace_id, id)` in the one migration the Citus path needs (docs/deploying.md lists it).
 */

/** The service's own schema: the migrations own it. */
const SCHEMA = 'public';

/**
 * Schemas that are not the service's tables, and why they stay out of distribution. Any other
 * schema fails the test.
 */
const OTHER_SCHEMAS: Record<string, string> = {
  // pg-boss's queue (jobs, schedules, queue stats): one queue for the deployment, keyed by job
  // id; it stays on the coordinator (or its own database).
  pgboss: 'pg-boss queue tables',
  // Rate-limit and sign-in counters (created at start, keyed by API key id / e-mail + address):
  // short-lived, deployment-wide; in a large deployment they live in Redis (REDIS_URL).
  svc_ratelimit: 'rate-limit counters',
};

/** Tables of `public` without a `workspace_id` column, and why. */
const NO_WORKSPACE_COLUMN: Record<string, string> = {
  // The tenants themselves: their `id` is the distribution key (a Citus reference table).
  workspaces: 'the tenant table',
  // The migrator's bookkeeping: a local table on the coordinator.
  mikro_orm_migrations: 'migrations bookkeeping',
  // How far the daily roll-up has read each source, one row per source for the deployment.
  daily_stats_watermarks: 'deployment-wide job state',
  // Children reached only through their parent, which has `workspace_id`. Each could gain the
  // column cheaply (copied from the parent on insert, backfilled by one UPDATE … FROM parent);
  // distributing them needs it.
  dashboard_sessions: 'child of users',
  export_chunks: 'child of exports',
  live_watches: 'child of participants (per live-hub process)',
  participant_event_counts: 'child of participants',
  reward_codes: 'child of rewards',
  webhook_attempts: 'child of webhook_deliveries',
  // A debit's share of a lot: both rows of one participant (docs/points.md#lots).
  lot_allocations: 'child of ledger_entries and point_lots',
  // Cap counters per participant and period.
  earning_counts: 'child of participants',
  // A credit inside a rolling tier window: keyed by its ledger entry, of one participant
  // (docs/tiers.md#qualifying-points).
  tier_credits: 'child of ledger_entries and participants',
};

/** A surrogate key alone: unique by construction; `(workspace_id, id)` under Citus. */
const ID_PK = 'surrogate id primary key';

/** Unique indexes (primary keys included) of `public` without `workspace_id`, and why. */
const UNIQUE_WITHOUT_WORKSPACE: Record<string, string> = {
  api_keys_pkey: ID_PK,
  // A key is looked up by its hash before the workspace is known (authentication): under Citus
  // this is a reference-table lookup (or the hash carries the workspace).
  api_keys_key_hash_unique: 'authentication looks keys up by hash alone',
  badges_pkey: ID_PK,
  daily_stats_watermarks_pkey: 'deployment-wide job state (see above)',
  dashboard_sessions_pkey: ID_PK,
  // Same as API keys: the session cookie is looked up before the workspace is known.
  dashboard_sessions_token_hash_unique: 'sessions are looked up by token hash alone',
  event_types_pkey: ID_PK,
  events_pkey: ID_PK,
  export_chunks_pkey: 'child of exports (see above)',
  exports_pkey: ID_PK,
  flow_runs_pkey: ID_PK,
  // One run per (event, flow): both belong to one workspace, so the index can gain workspace_id
  // as a leading column without changing what it allows.
  flow_runs_event_flow_unique: 'event and flow ids are of one workspace',
  // One inactivity run per (flow, participant, idle spell): flow and participant of one workspace.
  flow_runs_spell_unique: 'flow and participant ids are of one workspace',
  flows_pkey: ID_PK,
  ingest_endpoints_pkey: ID_PK,
  // The public ingest URL carries the key alone; like API keys, a lookup before the workspace.
  ingest_endpoints_key_unique: 'ingest endpoints are looked up by key alone',
  leaderboard_count_deltas_pkey: ID_PK,
  leaderboard_counts_pkey: ID_PK,
  // Scores are per participant (of one workspace): the key can gain workspace_id unchanged.
  leaderboard_scores_pkey: 'participant ids are of one workspace',
  leaderboards_pkey: ID_PK,
  ledger_entries_pkey: ID_PK,
  lot_allocations_pkey: 'child of ledger_entries and point_lots (see above)',
  earning_counts_pkey: 'child of participants (see above)',
  pending_grants_pkey: ID_PK,
  point_lots_pkey: ID_PK,
  tier_credits_pkey: 'child of ledger_entries and participants (see above)',
  tier_history_pkey: ID_PK,
  streaks_pkey: ID_PK,
  streak_changes_pkey: ID_PK,
  // A participant's state in a streak: both of one workspace (the row carries workspace_id too).
  participant_streaks_pkey: 'participant and streak ids are of one workspace',
  referrals_pkey: ID_PK,
  // A participant is a friend once: participant ids are of one workspace.
  referrals_friend_unique: 'participant ids are of one workspace',
  // A participant's code: the row carries workspace_id too, and the code is unique per workspace.
  referral_codes_pkey: 'participant ids are of one workspace',
  // A reversal names the entry it reverses, of the same participant and workspace.
  ledger_entries_reverses_entry_id_unique: 'the reversed entry is of the same workspace',
  live_watches_pkey: 'child of participants (see above)',
  message_templates_pkey: ID_PK,
  messages_pkey: ID_PK,
  mikro_orm_migrations_pkey: 'migrations bookkeeping (see above)',
  outbox_pkey: ID_PK,
  participant_badges_pkey: ID_PK,
  participant_badges_held_once: 'participant ids are of one workspace',
  participant_event_counts_pkey: 'child of participants (see above)',
  participant_multipliers_pkey: ID_PK,
  participants_pkey: ID_PK,
  redemptions_pkey: ID_PK,
  reward_codes_pkey: 'child of rewards (see above)',
  reward_codes_reward_code_unique: 'child of rewards (see above)',
  rewards_pkey: ID_PK,
  users_pkey: ID_PK,
  webhook_attempts_pkey: 'child of webhook_deliveries (see above)',
  webhook_deliveries_pkey: ID_PK,
  // One delivery per (subscription, result): both of one workspace.
  webhook_deliveries_result_unique: 'subscription and outbox ids are of one workspace',
  webhook_subscriptions_pkey: ID_PK,
  workspaces_pkey: 'the tenant table (see above)',
  // Slugs name a workspace across the deployment (sign-in, the CLI): a reference-table index.
  workspaces_slug_unique: 'the tenant table (see above)',
};

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await freshDatabase() });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
});

describe('every table and unique index carries workspace_id (the Citus path)', () => {
  it('no schema but the service’s own and the known ones', async () => {
    const { rows } = await client.query<{ schema: string }>(
      `select distinct table_schema as schema from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const unknown = rows.map((r) => r.schema).filter((s) => s !== SCHEMA && !(s in OTHER_SCHEMAS));
    expect(unknown).toEqual([]);
  });

  it('every table has a workspace_id column, except the allow-listed ones', async () => {
    const { rows } = await client.query<{ table: string; has: boolean }>(
      `select t.table_name as table,
              exists (select 1 from information_schema.columns c
                       where c.table_schema = t.table_schema and c.table_name = t.table_name
                         and c.column_name = 'workspace_id') as has
         from information_schema.tables t
        where t.table_schema = $1 and t.table_type = 'BASE TABLE'
        order by 1`,
      [SCHEMA],
    );
    expect(rows.length).toBeGreaterThan(20);
    const without = rows.filter((r) => !r.has).map((r) => r.table);
    // Missing here and not listed: give it the column, or an entry with its reason.
    expect(without.filter((t) => !(t in NO_WORKSPACE_COLUMN))).toEqual([]);
    // Listed but has the column (or no longer exists): remove the entry.
    expect(Object.keys(NO_WORKSPACE_COLUMN).filter((t) => !without.includes(t))).toEqual([]);
  });

  it('every primary key and unique index includes workspace_id, except the allow-listed ones', async () => {
    const { rows } = await client.query<{ index: string; table: string; def: string; has: boolean }>(
      `select i.relname as index, t.relname as table, pg_get_indexdef(x.indexrelid) as def,
              exists (select 1 from pg_attribute a
                       where a.attrelid = t.oid and a.attname = 'workspace_id'
                         and a.attnum = any(x.indkey)) as has
         from pg_index x
         join pg_class i on i.oid = x.indexrelid
         join pg_class t on t.oid = x.indrelid
         join pg_namespace n on n.oid = t.relnamespace
        where x.indisunique and n.nspname = $1
        order by 2, 1`,
      [SCHEMA],
    );
    expect(rows.some((r) => r.has)).toBe(true); // e.g. participants (workspace_id, mode, external_id)
    const without = rows.filter((r) => !r.has);
    expect(without.filter((r) => !(r.index in UNIQUE_WITHOUT_WORKSPACE)).map((r) => r.def)).toEqual([]);
    expect(Object.keys(UNIQUE_WITHOUT_WORKSPACE).filter((i) => !without.some((r) => r.index === i))).toEqual(
      [],
    );
  });
});
