import { Migration } from '@mikro-orm/migrations';

/**
 * Live updates (GraphQL subscriptions): every statement that inserts ledger entries or badge
 * awards announces, on the `svc_live` channel, which of the participants some process watches
 * (`live_watches`) changed: `l:<ids>` or
 * `b:<ids>` (participant ids, comma-separated; `*` when the list would not fit NOTIFY's 8000
 * bytes). Postgres delivers it only on COMMIT, in commit order, so whatever process committed the
 * change (a worker's flow, an API process's redemption), every API process hears it and reads the
 * rows it has not sent yet by id. Statement triggers with transition tables: one NOTIFY per
 * statement, however many rows (MikroORM does not read these back, so they live here only).
 */
const notifyFn = (name: string, tag: string) =>
  `create or replace function "${name}"() returns trigger as $$
declare ids text;
begin
  select string_agg(distinct n.participant_id::text, ',') into ids from new_rows n
   where exists (select 1 from live_watches w where w.participant_id = n.participant_id);
  if ids is null then return null; end if;
  if length(ids) > 7900 then ids := '*'; end if;
  perform pg_notify('svc_live', '${tag}:' || ids);
  return null;
end $$ language plpgsql;`;

export class Migration20261125120000 extends Migration {
  override name = 'Migration20261125120000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "live_watches" ("participant_id" bigint not null, "hub_id" uuid not null, "created_at" timestamptz not null default now(), primary key ("participant_id", "hub_id"));`,
    );
    this.addSql(notifyFn('ledger_entries_live_fn', 'l'));
    this.addSql(
      `create trigger "ledger_entries_live" after insert on "ledger_entries" referencing new table as new_rows for each statement execute function "ledger_entries_live_fn"();`,
    );
    this.addSql(notifyFn('participant_badges_live_fn', 'b'));
    this.addSql(
      `create trigger "participant_badges_live" after insert on "participant_badges" referencing new table as new_rows for each statement execute function "participant_badges_live_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "live_watches";`);
    this.addSql(`drop trigger if exists "ledger_entries_live" on "ledger_entries";`);
    this.addSql(`drop function if exists "ledger_entries_live_fn"();`);
    this.addSql(`drop trigger if exists "participant_badges_live" on "participant_badges";`);
    this.addSql(`drop function if exists "participant_badges_live_fn"();`);
  }
}
