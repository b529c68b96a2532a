import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { resolveDatabase } from './db/database.ts';
import { DomainError } from './errors.ts';
import { createLogger } from './logger.ts';
import { openRuntime } from './runtime.ts';
import { exitOnSignals, startServer } from './server.ts';
import { seedDemo } from './services/demo/seed-demo.ts';
import { createKey, revokeKey, rotateKey } from './services/keys/manage-keys.ts';
import { createUser } from './services/workspaces/create-user.ts';
import { createWorkspace } from './services/workspaces/create-workspace.ts';

const USAGE = `svc — loyalty and engagement service

  svc serve [--role api|worker|all]
  svc migrate
  svc workspace create <slug> [--name N]
  svc keys create --workspace <slug> --mode live|test [--abilities a,b] [--name N]
  svc keys rotate <id>
  svc keys revoke <id>
  svc users create --workspace <slug> --email E --password P
  svc demo

  --json   print exactly one JSON object on stdout (logs go to stderr)
Environment: DATABASE_URL (default: embedded Postgres under ./.svc), see README for the rest.`;

type Opts = Record<string, string | boolean | undefined>;

/** The command line itself is wrong: exit 2 with the usage, as opposed to a failed command (exit 1). */
class UsageError extends Error {}

/** Runs a command that needs the database, then closes everything it opened. */
async function withRuntime<T>(
  fn: (rt: Awaited<ReturnType<typeof openRuntime>>, url: string) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const db = await resolveDatabase(config, (m) => log.info(m));
  const rt = await openRuntime(config, db.url, log);
  try {
    return await fn(rt, db.url);
  } finally {
    await rt.close();
    await db.stop();
  }
}

function print(opts: Opts, result: Record<string, unknown>, human: string): void {
  process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${human}\n`);
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  role: { type: 'string' },
  name: { type: 'string' },
  workspace: { type: 'string' },
  mode: { type: 'string' },
  abilities: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
} as const;

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    throw new UsageError((e as Error).message); // unknown option, missing option value
  }
}

async function main(argv: string[]): Promise<number> {
  const { values: opts, positionals } = parse(argv);
  const [cmd, sub, arg] = positionals;
  const need = (v: string | undefined, what: string) => {
    if (!v) throw new UsageError(`missing ${what}`);
    return v;
  };

  if (opts.help || !cmd) {
    // Asked for: stdout and success. Not asked for (no command at all): a usage error.
    if (!opts.help) throw new UsageError('no command given');
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (cmd === 'serve') {
    const role = opts.role as 'api' | 'worker' | 'all' | undefined;
    if (role && !['api', 'worker', 'all'].includes(role))
      throw new UsageError('--role must be api, worker or all');
    const running = await startServer(loadConfig(), { role });
    exitOnSignals(running);
    return -1; // keep running
  }
  if (cmd === 'migrate') {
    await withRuntime(async () => {});
    print(opts, { migrated: true }, 'migrations applied');
    return 0;
  }
  if (cmd === 'workspace' && sub === 'create') {
    const ws = await withRuntime(({ ctx }) =>
      createWorkspace(ctx, { slug: need(arg, '<slug>'), name: opts.name }),
    );
    print(opts, { ...ws }, `workspace ${ws.slug} (${ws.id})`);
    return 0;
  }
  if (cmd === 'keys' && sub === 'create') {
    const abilities =
      typeof opts.abilities === 'string'
        ? opts.abilities
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean)
        : [];
    const k = await withRuntime(({ ctx }) =>
      createKey(ctx, {
        workspace: need(opts.workspace as string, '--workspace'),
        mode: need(opts.mode as string, '--mode'),
        abilities,
        name: opts.name,
      }),
    );
    print(
      opts,
      { id: k.id, key: k.key, mode: k.mode, abilities: k.abilities, name: k.name },
      `${k.key}\n(id ${k.id}; shown once, store it now)`,
    );
    return 0;
  }
  if (cmd === 'keys' && sub === 'rotate') {
    const k = await withRuntime(({ ctx }) => rotateKey(ctx, need(arg, '<id>')));
    print(
      opts,
      { id: k.id, key: k.key, mode: k.mode, abilities: k.abilities, revoked_id: k.revoked_id },
      `${k.key}\n(id ${k.id}; ${k.revoked_id} revoked)`,
    );
    return 0;
  }
  if (cmd === 'keys' && sub === 'revoke') {
    const r = await withRuntime(({ ctx }) => revokeKey(ctx, need(arg, '<id>')));
    print(opts, r, `key ${r.id} revoked`);
    return 0;
  }
  if (cmd === 'users' && sub === 'create') {
    const u = await withRuntime(({ ctx }) =>
      createUser(ctx, {
        workspace: need(opts.workspace as string, '--workspace'),
        email: opts.email,
        password: opts.password,
      }),
    );
    print(opts, u, `user ${u.email} (${u.id})`);
    return 0;
  }
  if (cmd === 'demo') {
    const d = await withRuntime(({ ctx }, url) => seedDemo(ctx, url));
    print(opts, d, `workspace ${d.workspace}\ntest key: ${d.test_key}\nlive key: ${d.live_key}`);
    return 0;
  }
  throw new UsageError(`unknown command: ${positionals.join(' ')}`);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`svc: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof DomainError) {
      const extra = err.extra.errors ? `\n${JSON.stringify(err.extra.errors)}` : '';
      process.stderr.write(`svc: ${err.message}${extra}\n`);
    } else process.stderr.write(`svc: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
