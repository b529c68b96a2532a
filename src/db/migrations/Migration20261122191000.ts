import { Migration } from '@mikro-orm/migrations';

/** The engine: badges, participant badges, flows, flow runs and per-participant event counts. */
export class Migration20261122191000 extends Migration {
  override name = 'Migration20261122191000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "badges" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(128) not null, "name" varchar(200) not null, "description" text null, "image_url" text null, "tiers" jsonb not null default '[]', "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "badges" add constraint "badges_key_unique" unique ("workspace_id", "mode", "key");`,
    );

    this.addSql(
      `create table "participant_badges" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "badge_id" bigint not null, "tier" varchar(64) not null default '', "awarded_at" timestamptz not null default now(), "flow_run_id" uuid null, "idempotency_key" varchar(300) null);`,
    );
    this.addSql(`create index "participant_badges_badge_idx" on "participant_badges" ("badge_id");`);
    this.addSql(
      `alter table "participant_badges" add constraint "participant_badges_held_once" unique ("participant_id", "badge_id", "tier");`,
    );
    this.addSql(
      `alter table "participant_badges" add constraint "participant_badges_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );

    this.addSql(
      `create table "flows" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "name" varchar(200) not null, "event_type" varchar(128) not null, "conditions" jsonb null, "actions" jsonb not null, "active" boolean not null default true, "max_runs_per_participant" int null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "flows_list_idx" on "flows" ("workspace_id", "mode", "id");`);
    this.addSql(`create index "flows_event_type_idx" on "flows" ("workspace_id", "mode", "event_type");`);

    this.addSql(
      `create table "flow_runs" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "flow_id" uuid not null, "event_id" uuid not null, "participant_id" bigint not null, "status" varchar(16) not null, "steps" jsonb not null default '[]', "started_at" timestamptz not null default now(), "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "flow_runs_list_idx" on "flow_runs" ("workspace_id", "mode", "id");`);
    this.addSql(
      `create index "flow_runs_participant_flow_idx" on "flow_runs" ("participant_id", "flow_id");`,
    );
    this.addSql(
      `alter table "flow_runs" add constraint "flow_runs_event_flow_unique" unique ("event_id", "flow_id");`,
    );

    this.addSql(
      `create table "participant_event_counts" ("participant_id" bigint not null, "event_type" varchar(128) not null, "count" bigint not null default '0', primary key ("participant_id", "event_type"));`,
    );

    this.addSql(
      `alter table "badges" add constraint "badges_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_badges" add constraint "participant_badges_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_badges" add constraint "participant_badges_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_badges" add constraint "participant_badges_badge_id_foreign" foreign key ("badge_id") references "badges" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "flows" add constraint "flows_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_runs" add constraint "flow_runs_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_runs" add constraint "flow_runs_flow_id_foreign" foreign key ("flow_id") references "flows" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_runs" add constraint "flow_runs_event_id_foreign" foreign key ("event_id") references "events" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "flow_runs" add constraint "flow_runs_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_event_counts" add constraint "participant_event_counts_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
  }
}
