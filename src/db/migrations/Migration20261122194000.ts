import { Migration } from '@mikro-orm/migrations';

/** Rewards catalogue, code pools, redemptions and points-multiplier perks. */
export class Migration20261122194000 extends Migration {
  override name = 'Migration20261122194000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "rewards" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "name" varchar(200) not null, "type" varchar(32) not null, "cost_points" bigint not null, "subtitle" varchar(300) null, "description" text null, "image_url" text null, "active" boolean not null default true, "starts_at" timestamptz null, "ends_at" timestamptz null, "stock" int null, "stock_remaining" int null, "config" jsonb not null default '{}', "archived_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "rewards_list_idx" on "rewards" ("workspace_id", "mode", "id");`);
    this.addSql(
      `create unique index "rewards_name_unique" on "rewards" ("workspace_id", "mode", "name") where archived_at is null;`,
    );
    this.addSql(
      `create table "reward_codes" ("id" bigserial primary key, "reward_id" bigint not null, "code" varchar(200) not null, "redemption_id" bigint null, "redeemed_at" timestamptz null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "reward_codes_available_idx" on "reward_codes" ("reward_id", "id") where redeemed_at is null;`,
    );
    this.addSql(
      `alter table "reward_codes" add constraint "reward_codes_reward_code_unique" unique ("reward_id", "code");`,
    );
    this.addSql(
      `create table "redemptions" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "reward_id" bigint not null, "status" varchar(16) not null, "fulfilment" jsonb not null, "cost_points" bigint not null, "idempotency_key" varchar(300) null, "request_hash" varchar(64) null, "reference" varchar(300) not null, "failure" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "redemptions_list_idx" on "redemptions" ("workspace_id", "mode", "id");`);
    this.addSql(`create index "redemptions_participant_idx" on "redemptions" ("participant_id", "id");`);
    this.addSql(`create index "redemptions_reward_idx" on "redemptions" ("reward_id", "id");`);
    this.addSql(
      `alter table "redemptions" add constraint "redemptions_idempotency_key_unique" unique ("workspace_id", "mode", "idempotency_key");`,
    );
    this.addSql(
      `create table "participant_multipliers" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "redemption_id" bigint null, "factor" numeric(6,3) not null, "starts_at" timestamptz not null default now(), "expires_at" timestamptz not null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "participant_multipliers_active_idx" on "participant_multipliers" ("participant_id", "expires_at");`,
    );
    this.addSql(
      `alter table "rewards" add constraint "rewards_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "rewards" add constraint "rewards_stock_remaining_non_negative" check (stock_remaining >= 0);`,
    );
    this.addSql(
      `alter table "reward_codes" add constraint "reward_codes_reward_id_foreign" foreign key ("reward_id") references "rewards" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "redemptions" add constraint "redemptions_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "redemptions" add constraint "redemptions_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "redemptions" add constraint "redemptions_reward_id_foreign" foreign key ("reward_id") references "rewards" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_multipliers" add constraint "participant_multipliers_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_multipliers" add constraint "participant_multipliers_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_multipliers" add constraint "participant_multipliers_factor_range" check (factor > 1 and factor <= 10);`,
    );
  }
}
