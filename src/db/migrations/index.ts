import { Migration20261122074344 } from './Migration20261122074344.ts';

/** Committed migrations in order; `npm run migration:create` writes new files beside this one. */
export const migrations = [{ name: 'Migration20261122074344', class: Migration20261122074344 }];
