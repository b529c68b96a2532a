import { Migration20261122074344 } from './Migration20261122074344.ts';
import { Migration20261122190000 } from './Migration20261122190000.ts';
import { Migration20261122191000 } from './Migration20261122191000.ts';
import { Migration20261122192000 } from './Migration20261122192000.ts';
import { Migration20261122193000 } from './Migration20261122193000.ts';
import { Migration20261122194000 } from './Migration20261122194000.ts';
import { Migration20261122195000 } from './Migration20261122195000.ts';
import { Migration20261123001000 } from './Migration20261123001000.ts';
import { Migration20261125120000 } from './Migration20261125120000.ts';
import { Migration20261125134000 } from './Migration20261125134000.ts';
import { Migration20261125140000 } from './Migration20261125140000.ts';
import { Migration20261125141000 } from './Migration20261125141000.ts';
import { Migration20261125150000 } from './Migration20261125150000.ts';
import { Migration20261125161843 } from './Migration20261125161843.ts';
import { Migration20261128063615 } from './Migration20261128063615.ts';
import { Migration20261128100000 } from './Migration20261128100000.ts';
import { Migration20261128130000 } from './Migration20261128130000.ts';
import { Migration20261128170000 } from './Migration20261128170000.ts';
import { Migration20261128180000 } from './Migration20261128180000.ts';
import { Migration20261128230000 } from './Migration20261128230000.ts';

/** Committed migrations in order; `npm run migration:create` writes new files beside this one. */
export const migrations = [
  { name: 'Migration20261122074344', class: Migration20261122074344 },
  { name: 'Migration20261122190000', class: Migration20261122190000 },
  { name: 'Migration20261122191000', class: Migration20261122191000 },
  { name: 'Migration20261122192000', class: Migration20261122192000 },
  { name: 'Migration20261122193000', class: Migration20261122193000 },
  { name: 'Migration20261122194000', class: Migration20261122194000 },
  { name: 'Migration20261122195000', class: Migration20261122195000 },
  { name: 'Migration20261123001000', class: Migration20261123001000 },
  { name: 'Migration20261125120000', class: Migration20261125120000 },
  { name: 'Migration20261125134000', class: Migration20261125134000 },
  { name: 'Migration20261125140000', class: Migration20261125140000 },
  { name: 'Migration20261125141000', class: Migration20261125141000 },
  { name: 'Migration20261125150000', class: Migration20261125150000 },
  { name: 'Migration20261125161843', class: Migration20261125161843 },
  { name: 'Migration20261128063615', class: Migration20261128063615 },
  { name: 'Migration20261128100000', class: Migration20261128100000 },
  { name: 'Migration20261128130000', class: Migration20261128130000 },
  { name: 'Migration20261128170000', class: Migration20261128170000 },
  { name: 'Migration20261128180000', class: Migration20261128180000 },
  { name: 'Migration20261128230000', class: Migration20261128230000 },
];
