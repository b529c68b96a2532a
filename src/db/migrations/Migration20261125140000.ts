import { Migration } from '@mikro-orm/migrations';

/**
 * The data lifecycle (src/services/lifecycle) deletes old outbox rows, whose foreign key cascades
 * to `webhook_deliveries.outbox_id`: without an index on it, Postgres would scan every delivery
 * once per outbox row deleted. (`flow_runs.event_id` already leads `flow_runs_event_flow_unique`.)
 */
export class Migration20261125140000 extends Migration {
  override name = 'Migration20261125140000';

  override up(): void | Promise<void> {
    this.addSql(`create index "webhook_deliveries_outbox_idx" on "webhook_deliveries" ("outbox_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_outbox_idx";`);
  }
}
