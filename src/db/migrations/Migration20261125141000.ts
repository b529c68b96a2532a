import { Migration } from '@mikro-orm/migrations';

/**
 * Exports (docs/exports.md): the requested exports and, for the default Postgres storage, their files
 * as numbered chunks. Chunk bytes are stored uncompressed (`storage external`): CSV and JSONL
 * would compress, but pglz on every 1 MiB chunk costs more CPU than the export itself, and the
 * files live 7 days at most.
 */
export class Migration20261125141000 extends Migration {
  override name = 'Migration20261125141000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "exports" ("id" uuid not null, "workspace_id" uuid not null, "mode" varchar(4) not null, "resource" varchar(32) not null, "format" varchar(8) not null, "since" timestamptz null, "until" timestamptz null, "status" varchar(16) not null default 'pending', "attempt" int not null default 0, "row_count" bigint null, "size_bytes" bigint null, "error" text null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), "started_at" timestamptz null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "exports_list_idx" on "exports" ("workspace_id", "mode", "id");`);
    this.addSql(`create index "exports_expires_at_idx" on "exports" ("expires_at");`);
    this.addSql(
      `create table "export_chunks" ("export_id" uuid not null, "attempt" int not null, "seq" int not null, "bytes" bytea not null, primary key ("export_id", "attempt", "seq"));`,
    );
    this.addSql(`alter table "export_chunks" alter column "bytes" set storage external;`);
    this.addSql(
      `alter table "exports" add constraint "exports_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "exports" add constraint "exports_status_check" check (status in ('pending', 'running', 'completed', 'failed'));`,
    );
    this.addSql(
      `alter table "export_chunks" add constraint "export_chunks_export_id_foreign" foreign key ("export_id") references "exports" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "export_chunks" cascade;`);
    this.addSql(`drop table if exists "exports" cascade;`);
  }
}
