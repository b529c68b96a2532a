import { Migration } from '@mikro-orm/migrations';

/**
 * Participants search and leaderboards: the trigram search index, the configured boards, the
 * all-time/weekly/monthly scores and the rank histograms (README "Participants, points and
 * leaderboards").
 */
export class Migration20261122192000 extends Migration {
  override name = 'Migration20261122192000';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create index "participants_search_trgm_idx" on "participants" using gin ((external_id || chr(31) || coalesce(email, '') || chr(31) || coalesce(name, '')) gin_trgm_ops);`,
    );

    this.addSql(
      `create table "leaderboards" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(64) not null, "name" varchar(200) not null, "period" varchar(16) not null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "leaderboards" add constraint "leaderboards_workspace_id_mode_key_unique" unique ("workspace_id", "mode", "key");`,
    );
    this.addSql(
      `alter table "leaderboards" add constraint "leaderboards_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `create table "leaderboard_scores" ("participant_id" bigint not null, "period" varchar(8) not null, "period_start" date not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "score" bigint not null default '0', primary key ("participant_id", "period", "period_start"));`,
    );
    this.addSql(
      `create index "leaderboard_scores_top_idx" on "leaderboard_scores" ("workspace_id", "mode", "period", "period_start", "score" desc, "participant_id");`,
    );
    this.addSql(
      `alter table "leaderboard_scores" add constraint "leaderboard_scores_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "leaderboard_scores" add constraint "leaderboard_scores_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `create table "leaderboard_counts" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "period" varchar(8) not null, "period_start" date not null, "level" smallint not null, "bucket" bigint not null, "count" bigint not null);`,
    );
    this.addSql(
      `alter table "leaderboard_counts" add constraint "leaderboard_counts_bucket_unique" unique ("workspace_id", "mode", "period", "period_start", "level", "bucket");`,
    );
    this.addSql(
      `alter table "leaderboard_counts" add constraint "leaderboard_counts_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "leaderboard_count_deltas" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "period" varchar(8) not null, "period_start" date not null, "level" smallint not null, "bucket" bigint not null, "count" bigint not null);`,
    );
    this.addSql(
      `create index "leaderboard_count_deltas_bucket_idx" on "leaderboard_count_deltas" ("workspace_id", "mode", "period", "period_start", "level", "bucket");`,
    );
    this.addSql(
      `alter table "leaderboard_count_deltas" add constraint "leaderboard_count_deltas_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
  }
}
