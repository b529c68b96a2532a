import { ormConfig } from './src/db/orm.ts';

// Used by `npx mikro-orm migration:create|check`; points at DATABASE_URL (CI: the local Postgres).
export default ormConfig(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/svc_dev');
