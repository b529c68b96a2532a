import { Migration } from '@mikro-orm/migrations';

/**
 * Referrals (docs/referrals.md): the programme of a workspace and mode, each participant's code,
 * the referrals with their lifecycle and the job's due index, and the code an event carried.
 */
export class Migration20261128170000 extends Migration {
  override name = 'Migration20261128170000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "referral_programs" ("workspace_id" uuid not null, "mode" varchar(4) not null, "settings" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("workspace_id", "mode"))`,
    );
    this.addSql(
      `create table "referral_codes" ("participant_id" bigint not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "code" varchar(12) not null, "created_at" timestamptz not null default now(), primary key ("participant_id"))`,
    );
    this.addSql(
      `alter table "referral_codes" add constraint "referral_codes_code_unique" unique ("workspace_id", "mode", "code")`,
    );
    this.addSql(
      `create table "referrals" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "code" varchar(12) not null, "advocate_id" bigint not null, "friend_id" bigint not null, "status" varchar(16) not null, "reason" varchar(32) null, "event_id" uuid not null, "qualifying_event_id" uuid null, "created_at" timestamptz not null default now(), "expires_at" timestamptz null, "qualified_at" timestamptz null, "reward_available_at" timestamptz null, "rewarded_at" timestamptz null, "clawed_back_at" timestamptz null, "grant_ids" uuid[] null, "due_at" timestamptz null, primary key ("id"))`,
    );
    this.addSql(`create index "referrals_list_idx" on "referrals" ("workspace_id", "mode", "id")`);
    this.addSql(`create index "referrals_advocate_idx" on "referrals" ("advocate_id", "created_at")`);
    this.addSql(`create index "referrals_due_idx" on "referrals" ("due_at") where due_at is not null`);
    this.addSql(`alter table "referrals" add constraint "referrals_friend_unique" unique ("friend_id")`);
    this.addSql(`alter table "events" add "referral_code" varchar(64) null`);
    this.addSql(
      `alter table "referral_programs" add constraint "referral_programs_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "referral_codes" add constraint "referral_codes_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "referrals" add constraint "referrals_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "referrals" add constraint "referrals_advocate_id_foreign" foreign key ("advocate_id") references "participants" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "referrals" add constraint "referrals_friend_id_foreign" foreign key ("friend_id") references "participants" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "referrals" add constraint "referrals_status_check" check (status in ('pending', 'qualified', 'rewarded', 'blocked', 'expired', 'clawed_back'))`,
    );
  }
}
