import { Migration } from '@mikro-orm/migrations';

/**
 * The overview's daily rollup (src/services/overview): `daily_stats` holds one number per
 * workspace, mode, UTC day, metric and key; `daily_stats_watermarks` how far the rollup job has
 * read each source table. No trigger and no index on the ingest path: the job reads new rows by
 * their primary keys.
 */
export class Migration20261125150000 extends Migration {
  override name = 'Migration20261125150000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "daily_stats" ("workspace_id" uuid not null, "mode" varchar(4) not null, "day" date not null, "metric" varchar(32) not null, "key" varchar(64) not null, "value" bigint not null default '0', primary key ("workspace_id", "mode", "day", "metric", "key"));`,
    );
    this.addSql(
      `alter table "daily_stats" add constraint "daily_stats_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "daily_stats_watermarks" ("source" varchar(32) not null, "last_id" text null, "updated_at" timestamptz not null default now(), primary key ("source"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "daily_stats_watermarks" cascade;`);
    this.addSql(`drop table if exists "daily_stats" cascade;`);
  }
}
