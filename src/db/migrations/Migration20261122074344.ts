import { Migration } from '@mikro-orm/migrations';

export class Migration20261122074344 extends Migration {
  override name = 'Migration20261122074344';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "workspaces" ("id" uuid not null, "slug" varchar(64) not null, "name" varchar(200) not null, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`alter table "workspaces" add constraint "workspaces_slug_unique" unique ("slug");`);

    this.addSql(
      `create table "users" ("id" uuid not null, "workspace_id" uuid not null, "email" varchar(320) not null, "password_hash" varchar(200) not null, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_workspace_id_email_unique" unique ("workspace_id", "email");`,
    );

    this.addSql(
      `create table "participants" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "external_id" varchar(255) not null, "email" varchar(320) null, "phone" varchar(64) null, "name" varchar(200) null, "balance" bigint not null default '0', "lifetime_points" bigint not null default '0', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "participants_workspace_id_mode_id_index" on "participants" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `alter table "participants" add constraint "participants_workspace_id_mode_external_id_unique" unique ("workspace_id", "mode", "external_id");`,
    );

    this.addSql(
      `create table "ingest_endpoints" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "name" varchar(200) not null, "key" varchar(64) not null, "secret_enc" text not null, "default_event_type" varchar(128) null, "created_at" timestamptz not null default now(), "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "ingest_endpoints" add constraint "ingest_endpoints_key_unique" unique ("key");`,
    );
    this.addSql(
      `create index "ingest_endpoints_workspace_id_mode_id_index" on "ingest_endpoints" ("workspace_id", "mode", "id");`,
    );

    this.addSql(
      `create table "event_types" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(128) not null, "schema" jsonb null, "events_count" bigint not null default '0', "first_seen_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "event_types_workspace_id_mode_id_index" on "event_types" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `alter table "event_types" add constraint "event_types_workspace_id_mode_key_unique" unique ("workspace_id", "mode", "key");`,
    );

    this.addSql(
      `create table "events" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "event_type" varchar(128) null, "participant_id" bigint null, "external_id" varchar(255) null, "payload" jsonb not null default '{}', "occurred_at" timestamptz not null, "received_at" timestamptz not null default now(), "status" varchar(16) not null, "quarantine_reason" text null, "idempotency_key" varchar(255) null, "source" varchar(64) not null, "processed_at" timestamptz null, "error" text null, primary key ("id"));`,
    );
    this.addSql(`create index "events_list_idx" on "events" ("workspace_id", "mode", "id");`);
    this.addSql(`create index "events_participant_idx" on "events" ("participant_id", "id");`);
    this.addSql(
      `alter table "events" add constraint "events_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );

    this.addSql(
      `create table "api_keys" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "name" varchar(200) null, "key_hash" varchar(64) not null, "hint" varchar(32) not null, "abilities" text[] not null default '{}', "created_at" timestamptz not null default now(), "revoked_at" timestamptz null, "replaced_by" uuid null, primary key ("id"));`,
    );
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(
      `alter table "users" add constraint "users_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "participants" add constraint "participants_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "ingest_endpoints" add constraint "ingest_endpoints_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "event_types" add constraint "event_types_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "events" add constraint "events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "events" add constraint "events_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
  }
}
