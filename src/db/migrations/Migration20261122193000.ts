import { Migration } from '@mikro-orm/migrations';

/** Message templates and the messages log (intent rows, unique on the flow's derived key). */
export class Migration20261122193000 extends Migration {
  override name = 'Migration20261122193000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "message_templates" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(128) not null, "channel" varchar(8) not null, "subject" varchar(500) null, "body" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "message_templates_list_idx" on "message_templates" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `alter table "message_templates" add constraint "message_templates_key_unique" unique ("workspace_id", "mode", "key");`,
    );
    this.addSql(
      `create table "messages" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint null, "template" varchar(128) not null, "channel" varchar(8) not null, "to" varchar(320) null, "status" varchar(16) not null, "subject" varchar(500) null, "body" text not null, "error" text null, "idempotency_key" varchar(300) not null, "attempts" int not null default 0, "claimed_at" timestamptz null, "sent_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`create index "messages_list_idx" on "messages" ("workspace_id", "mode", "id");`);
    this.addSql(`create index "messages_participant_idx" on "messages" ("participant_id", "id");`);
    this.addSql(`create index "messages_pending_idx" on "messages" ("created_at") where status = 'pending';`);
    this.addSql(
      `alter table "messages" add constraint "messages_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );
    this.addSql(
      `alter table "message_templates" add constraint "message_templates_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_status_check" check (status in ('pending', 'sent', 'simulated', 'failed', 'skipped'));`,
    );
  }
}
