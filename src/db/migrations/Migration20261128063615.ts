import { Migration } from '@mikro-orm/migrations';
import { LOTS_TRIGGER_DDL } from '../../services/points/lots-trigger.sql.ts';

/**
 * The points lifecycle (docs/points.md): programme settings, point lots kept by a ledger trigger
 * with the allocations of every debit, pending grants, earning counts; ledger entries gain
 * `expires_at` and `capped_points`, participants `pending_points`.
 */
export class Migration20261128063615 extends Migration {
  override name = 'Migration20261128063615';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "program_settings" ("workspace_id" uuid not null, "mode" varchar(4) not null, "settings" jsonb not null, "updated_at" timestamptz not null default now(), primary key ("workspace_id", "mode"));`,
    );

    this.addSql(
      `create table "pending_grants" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "points" bigint not null, "available_at" timestamptz not null, "status" varchar(16) not null, "event_id" uuid null, "flow_run_id" uuid null, "idempotency_key" varchar(300) not null, "entry_id" bigint null, "created_at" timestamptz not null default now(), "settled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "pending_grants_participant_idx" on "pending_grants" ("participant_id", "id");`,
    );
    this.addSql(
      `create index "pending_grants_due_idx" on "pending_grants" ("available_at") where status = 'pending';`,
    );
    this.addSql(
      `alter table "pending_grants" add constraint "pending_grants_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );

    this.addSql(
      `create table "earning_counts" ("participant_id" bigint not null, "scope" varchar(80) not null, "period" varchar(16) not null, "points" bigint not null default '0', primary key ("participant_id", "period", "scope"));`,
    );

    this.addSql(
      `create table "point_lots" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "entry_id" bigint not null, "points" bigint not null, "remaining" bigint not null, "expires_at" timestamptz null, "notified_at" timestamptz null, "expired_at" timestamptz null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "point_lots_open_idx" on "point_lots" ("participant_id", "expires_at", "id") where remaining > 0;`,
    );
    this.addSql(
      `create index "point_lots_due_idx" on "point_lots" ("expires_at") where remaining > 0 and expires_at is not null;`,
    );
    this.addSql(
      `create index "point_lots_notice_idx" on "point_lots" ("expires_at") where notified_at is null and remaining > 0 and expires_at is not null;`,
    );
    this.addSql(`create index "point_lots_entry_idx" on "point_lots" ("entry_id");`);

    this.addSql(
      `create table "lot_allocations" ("entry_id" bigint not null, "lot_id" bigint not null, "points" bigint not null, primary key ("entry_id", "lot_id"));`,
    );
    this.addSql(`create index "lot_allocations_lot_idx" on "lot_allocations" ("lot_id");`);

    this.addSql(`alter table "participants" add "pending_points" bigint not null default '0';`);
    this.addSql(
      `alter table "participants" add constraint "participants_pending_points_non_negative" check (pending_points >= 0);`,
    );

    this.addSql(
      `alter table "ledger_entries" add "expires_at" timestamptz null, add "capped_points" bigint not null default '0';`,
    );
    // The lots trigger (lots-trigger.sql.ts holds its text; a change to it comes with a migration).
    this.addSql(LOTS_TRIGGER_DDL);

    this.addSql(
      `alter table "program_settings" add constraint "program_settings_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "pending_grants" add constraint "pending_grants_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "pending_grants" add constraint "pending_grants_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "pending_grants" add constraint "pending_grants_points_positive" check (points > 0);`,
    );
    this.addSql(
      `alter table "pending_grants" add constraint "pending_grants_status_check" check (status in ('pending', 'activated', 'cancelled'));`,
    );

    this.addSql(
      `alter table "earning_counts" add constraint "earning_counts_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );

    this.addSql(`alter table "point_lots" add constraint "point_lots_points_positive" check (points > 0);`);
    this.addSql(
      `alter table "point_lots" add constraint "point_lots_remaining_range" check (remaining >= 0 and remaining <= points);`,
    );

    this.addSql(
      `alter table "lot_allocations" add constraint "lot_allocations_points_positive" check (points > 0);`,
    );

    // Every participant's balance so far becomes one never-expiring lot, opened by their latest credit.
    this.addSql(`insert into "point_lots" ("workspace_id", "mode", "participant_id", "entry_id", "points", "remaining", "expires_at")
      select p.workspace_id, p.mode, p.id,
             (select max(e.id) from ledger_entries e where e.participant_id = p.id and e.points > 0),
             p.balance, p.balance, null
        from participants p where p.balance > 0 order by p.id;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "program_settings" cascade;`);
    this.addSql(`drop table if exists "pending_grants" cascade;`);
    this.addSql(`drop table if exists "earning_counts" cascade;`);
    this.addSql(`drop table if exists "point_lots" cascade;`);
    this.addSql(`drop table if exists "lot_allocations" cascade;`);

    this.addSql(`drop trigger if exists "ledger_entries_lots" on "ledger_entries";`);
    this.addSql(`drop function if exists "ledger_entries_lots_fn"();`);
    this.addSql(`alter table "ledger_entries" drop column "expires_at", drop column "capped_points";`);

    this.addSql(`alter table "participants" drop constraint "participants_pending_points_non_negative";`);
    this.addSql(`alter table "participants" drop column "pending_points";`);
  }
}
