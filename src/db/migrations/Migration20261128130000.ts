import { Migration } from '@mikro-orm/migrations';
import { liveTrigger } from '../../services/live/triggers.ts';

/**
 * Engagement (docs/engagement.md): streak definitions, each participant's streak state and its
 * changes (announced on `svc_live`), a participant's time zone, achievements' criteria on badges,
 * inactivity flows (a trigger instead of an event type; their runs keyed by idle spell), the last
 * time of each participant's event type, and the index windowed conditions count on.
 */
export class Migration20261128130000 extends Migration {
  override name = 'Migration20261128130000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "streaks" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "key" varchar(64) not null, "name" varchar(200) not null, "event_types" jsonb not null, "frequency" varchar(8) not null, "freezes_initial" int not null default 0, "freezes_max" int not null default 0, "earn_every" int null, "archived_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "streaks" add constraint "streaks_key_unique" unique ("workspace_id", "mode", "key");`,
    );
    this.addSql(
      `alter table "streaks" add constraint "streaks_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "streaks" add constraint "streaks_frequency_check" check (frequency in ('daily', 'weekly', 'monthly'));`,
    );

    this.addSql(
      `create table "participant_streaks" ("participant_id" bigint not null, "streak_id" bigint not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "length" int not null default 0, "longest" int not null default 0, "freezes" int not null default 0, "earned" int not null default 0, "last_period" date not null, "checked_period" date not null, "history" jsonb not null default '[]', "due_at" timestamptz null, "updated_at" timestamptz not null default now(), primary key ("participant_id", "streak_id"));`,
    );
    this.addSql(
      `create index "participant_streaks_due_idx" on "participant_streaks" ("due_at") where due_at is not null;`,
    );
    this.addSql(
      `alter table "participant_streaks" add constraint "participant_streaks_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "participant_streaks" add constraint "participant_streaks_streak_id_foreign" foreign key ("streak_id") references "streaks" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "streak_changes" ("id" bigserial primary key, "workspace_id" uuid not null, "mode" varchar(4) not null, "participant_id" bigint not null, "streak_id" bigint not null, "change" varchar(10) not null, "length" int not null, "longest" int not null, "freezes" int not null, "period_start" date not null, "at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "streak_changes_participant_idx" on "streak_changes" ("participant_id", "id");`,
    );
    this.addSql(
      `alter table "streak_changes" add constraint "streak_changes_change_check" check (change in ('extended', 'frozen', 'broken'));`,
    );
    this.addSql(liveTrigger('streak_changes', 's').expression);

    this.addSql(`alter table "participants" add "timezone" varchar(64) null;`);
    this.addSql(`alter table "participant_event_counts" add "last_at" timestamptz null;`);

    this.addSql(`alter table "flows" add "trigger" jsonb null;`);
    this.addSql(`alter table "flows" alter column "event_type" drop not null;`);
    this.addSql(`alter table "flow_runs" add "spell_at" timestamptz null;`);
    this.addSql(`alter table "flow_runs" alter column "event_id" drop not null;`);
    this.addSql(
      `create unique index "flow_runs_spell_unique" on "flow_runs" ("flow_id", "participant_id", "spell_at") where spell_at is not null;`,
    );

    this.addSql(`alter table "badges" add "criteria" jsonb null;`);
    this.addSql(
      `create index "badges_criteria_idx" on "badges" ("workspace_id", "mode", (criteria->>'event_type')) where criteria is not null;`,
    );

    this.addSql(
      `create index "events_window_idx" on "events" ("participant_id", "event_type", "occurred_at") where status = 'processed';`,
    );
  }
}
