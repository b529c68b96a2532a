import { Migration } from '@mikro-orm/migrations';

/**
 * The engine's look for a participant's earlier events still waiting (flows/engine/load.sql.ts):
 * only `received` events, so a participant's processed ones are not walked on the way.
 */
export class Migration20261128230000 extends Migration {
  override name = 'Migration20261128230000';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "events_received_idx" on "events" ("participant_id", "id") where status = 'received';`,
    );
  }
}
