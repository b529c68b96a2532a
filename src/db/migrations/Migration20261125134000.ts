import { Migration } from '@mikro-orm/migrations';

/** Server-side dashboard sessions (docs/dashboard.md#security): sign-out deletes the row, so a copied cookie dies with it. */
export class Migration20261125134000 extends Migration {
  override name = 'Migration20261125134000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "dashboard_sessions" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "dashboard_sessions" add constraint "dashboard_sessions_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create index "dashboard_sessions_user_id_index" on "dashboard_sessions" ("user_id");`);
    this.addSql(
      `alter table "dashboard_sessions" add constraint "dashboard_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dashboard_sessions" cascade;`);
  }
}
