import { Migration } from '@mikro-orm/migrations';

/**
 * Ingest statements no longer wait on one another:
 * - Event-type counts move out of `event_types` into slotted rows: every ingest statement used
 *   to add to the same `event_types` row, so concurrent batches queued on its row lock until
 *   commit. Each Postgres connection now adds to its own slot; the count is the sum of the slots.
 * - The event log drops its foreign keys, whose checks locked each event's participant and the
 *   workspace row FOR KEY SHARE (a new MultiXact per concurrent batch on the workspace row).
 */
export class Migration20261123001000 extends Migration {
  override name = 'Migration20261123001000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "event_type_counts" ("workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(128) not null, "slot" smallint not null, "count" bigint not null, primary key ("workspace_id", "mode", "key", "slot"));`,
    );
    this.addSql(
      `alter table "event_type_counts" add constraint "event_type_counts_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `insert into "event_type_counts" ("workspace_id", "mode", "key", "slot", "count") select "workspace_id", "mode", "key", 0, "events_count" from "event_types" where "events_count" > 0;`,
    );
    this.addSql(`alter table "event_types" drop column "events_count";`);
    this.addSql(`alter table "events" drop constraint "events_workspace_id_foreign";`);
    this.addSql(`alter table "events" drop constraint "events_participant_id_foreign";`);
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "events" add constraint "events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "events" add constraint "events_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete set null;`,
    );
    this.addSql(`alter table "event_types" add column "events_count" bigint not null default '0';`);
    this.addSql(
      `update "event_types" t set "events_count" = c.n from (select "workspace_id", "mode", "key", sum("count") as n from "event_type_counts" group by 1, 2, 3) c where c."workspace_id" = t."workspace_id" and c."mode" = t."mode" and c."key" = t."key";`,
    );
    this.addSql(`drop table if exists "event_type_counts" cascade;`);
  }
}
