import { Migration } from '@mikro-orm/migrations';

/** Outbound webhooks: subscriptions, deliveries (one per result and subscription) and their attempts. */
export class Migration20261122195000 extends Migration {
  override name = 'Migration20261122195000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_subscriptions" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "url" text not null, "event_types" jsonb not null, "headers" jsonb not null default '{}', "description" varchar(500) null, "secret_enc" text not null, "status" varchar(16) not null default 'active', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_subscriptions_list_idx" on "webhook_subscriptions" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "subscription_id" uuid not null, "outbox_id" uuid not null, "type" varchar(64) not null, "body" text not null, "status" varchar(16) not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz null, "claim_token" uuid null, "last_attempt_at" timestamptz null, "last_status_code" int null, "last_error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_list_idx" on "webhook_deliveries" ("workspace_id", "mode", "id");`,
    );
    this.addSql(
      `create index "webhook_deliveries_subscription_idx" on "webhook_deliveries" ("subscription_id", "id");`,
    );
    this.addSql(
      `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where status = 'pending';`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_result_unique" unique ("subscription_id", "outbox_id");`,
    );
    this.addSql(
      `create table "webhook_attempts" ("id" bigserial primary key, "delivery_id" uuid not null, "number" int not null, "attempted_at" timestamptz not null, "status_code" int null, "duration_ms" int not null, "response_snippet" text null, "error" text null);`,
    );
    this.addSql(`create index "webhook_attempts_delivery_idx" on "webhook_attempts" ("delivery_id", "id");`);
    this.addSql(
      `alter table "webhook_subscriptions" add constraint "webhook_subscriptions_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_subscription_id_foreign" foreign key ("subscription_id") references "webhook_subscriptions" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_outbox_id_foreign" foreign key ("outbox_id") references "outbox" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on delete cascade;`,
    );
  }
}
