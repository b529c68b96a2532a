import { Migration } from '@mikro-orm/migrations';
import { liveTrigger } from '../../services/live/triggers.ts';

/**
 * Tiers (docs/tiers.md): the programme per workspace and mode, every participant's standing on
 * their own row, the history of moves (announced on `svc_live` like ledger entries), the
 * qualifying credits of rolling windows, and a reward's `min_tier`.
 */
export class Migration20261128100000 extends Migration {
  override name = 'Migration20261128100000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "tier_programs" ("workspace_id" uuid not null, "mode" varchar(4) not null, "programme" jsonb null, "previous" jsonb null, "version" int not null default 1, "applied_version" int not null default 0, "cursor" bigint not null default '0', "recount" boolean not null default false, "started_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("workspace_id", "mode"));`,
    );
    this.addSql(
      `alter table "tier_programs" add constraint "tier_programs_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `create table "tier_history" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "from_key" varchar(64) null, "from_name" varchar(200) null, "to_key" varchar(64) null, "to_name" varchar(200) null, "reason" varchar(20) not null, "note" varchar(500) null, "qualifying_points" bigint not null, "at" timestamptz not null default now());`,
    );
    this.addSql(`create index "tier_history_participant_idx" on "tier_history" ("participant_id", "id");`);
    this.addSql(
      `alter table "tier_history" add constraint "tier_history_reason_check" check (reason in ('qualified', 'downgrade', 'manual', 'programme_change'));`,
    );
    this.addSql(liveTrigger('tier_history', 't').expression);

    this.addSql(
      `create table "tier_credits" ("entry_id" bigint not null, "participant_id" bigint not null, "points" bigint not null, "leaves_at" timestamptz not null, primary key ("entry_id"));`,
    );
    this.addSql(`create index "tier_credits_leaves_idx" on "tier_credits" ("leaves_at");`);
    this.addSql(
      `create index "tier_credits_participant_idx" on "tier_credits" ("participant_id", "leaves_at");`,
    );

    this.addSql(`alter table "rewards" add "min_tier" varchar(64) null;`);

    this.addSql(
      `alter table "participants" add "tier_key" varchar(64) null, add "tier_since" timestamptz null, add "tier_points" bigint not null default '0', add "tier_period" varchar(16) null, add "tier_prior_points" bigint not null default '0', add "tier_review_at" timestamptz null;`,
    );
    this.addSql(
      `create index "participants_tier_review_idx" on "participants" ("tier_review_at") where tier_review_at is not null;`,
    );
    this.addSql(
      `create index "participants_tier_key_idx" on "participants" ("workspace_id", "mode", "id") where tier_key is not null;`,
    );
    this.addSql(
      `alter table "participants" add constraint "participants_tier_points_non_negative" check (tier_points >= 0 and tier_prior_points >= 0);`,
    );
  }
}
