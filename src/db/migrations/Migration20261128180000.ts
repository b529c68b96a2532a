import { Migration } from '@mikro-orm/migrations';

/**
 * For integrators (docs/webhooks.md, docs/api.md#replay): a subscription's rotated secrets in
 * their grace, why and when it was disabled, its failing streak's start and last success; an
 * event's replay links.
 */
export class Migration20261128180000 extends Migration {
  override name = 'Migration20261128180000';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_subscriptions" add "previous_secrets" jsonb not null default '[]', add "disabled_reason" varchar(16) null, add "disabled_at" timestamptz null, add "failing_since" timestamptz null, add "last_success_at" timestamptz null;`,
    );
    this.addSql(`alter table "events" add "replay_of" uuid null, add "replayed_as" uuid null;`);
    this.addSql(
      `create index "events_replayable_idx" on "events" ("workspace_id", "mode", "id") where status = 'quarantined' and replayed_as is null;`,
    );
  }
}
