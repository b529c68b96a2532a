import { Migration } from '@mikro-orm/migrations';

/** The points ledger (immutable, enforced here) and the results outbox. */
export class Migration20261122190000 extends Migration {
  override name = 'Migration20261122190000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "outbox" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "type" varchar(64) not null, "data" jsonb not null, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `create index "outbox_workspace_id_mode_id_index" on "outbox" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `alter table "outbox" add constraint "outbox_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `create table "ledger_entries" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "points" bigint not null, "balance_after" bigint not null, "reason" varchar(500) null, "source" varchar(16) not null, "reference" varchar(255) null, "reverses_entry_id" bigint null, "idempotency_key" varchar(300) null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "ledger_entries_participant_idx" on "ledger_entries" ("participant_id", "id");`,
    );
    this.addSql(`create index "ledger_entries_list_idx" on "ledger_entries" ("workspace_id", "mode", "id");`);
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_reverses_entry_id_unique" unique ("reverses_entry_id");`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "ledger_entries" add constraint "ledger_entries_reverses_entry_id_foreign" foreign key ("reverses_entry_id") references "ledger_entries" ("id") on delete no action;`,
    );

    // Points are never edited in place (docs/guarantees.md#the-ledger-immutable-balance--sum-of-entries): the database refuses UPDATE, DELETE and TRUNCATE.
    this.addSql(
      `create or replace function "ledger_entries_ledger_entries_no_update_fn"() returns trigger as $$ begin raise exception 'ledger entries are immutable: post a reversal instead'; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "ledger_entries_no_update" BEFORE UPDATE OR DELETE on "ledger_entries" for each ROW execute function "ledger_entries_ledger_entries_no_update_fn"();`,
    );
    this.addSql(
      `create or replace function "ledger_entries_ledger_entries_no_truncate_fn"() returns trigger as $$ begin raise exception 'ledger entries are immutable: post a reversal instead'; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "ledger_entries_no_truncate" BEFORE TRUNCATE on "ledger_entries" for each STATEMENT execute function "ledger_entries_ledger_entries_no_truncate_fn"();`,
    );
    this.addSql(
      `alter table "participants" add constraint "participants_balance_non_negative" check (balance >= 0);`,
    );
  }
}
