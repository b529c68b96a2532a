import { Migration20261122074344 } from './Migration20261122074344.ts';
import { Migration20261122190000 } from './Migration20261122190000.ts';

/** Committed migrations in order; `npm run migration:create` writes new files beside this one. */
export const migrations = [
  { name: 'Migration20261122074344', class: Migration20261122074344 },
  { name: 'Migration20261122190000', class: Migration20261122190000 },
];
