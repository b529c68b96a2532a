import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { resolveDatabase } from './db/database.ts';
import { DomainError, exitOnStartupError, StartupError } from './errors.ts';
import { createLogger } from './logger.ts';
import { openRuntime } from './runtime.ts';
import { exitOnSignals, startServer } from './server.ts';
import { seedDemo } from './services/demo/seed-demo.ts';
import { ABILITIES } from './services/keys/abilities.ts';
import { createKeyInput, issueKey, listKeys, revokeKey, rotateKey } from './services/keys/manage-keys.ts';
import { parseInput } from './services/validation.ts';
import { createUser, createUserInput } from './services/workspaces/create-user.ts';
import { createWorkspace, createWorkspaceInput } from './services/workspaces/create-workspace.ts';
import { deleteUserInput, deleteUserOf } from './services/workspaces/delete-user.ts';

/** Breaks a long line at spaces so help text stays within a terminal's width. */
function wrap(text: string, width = 96): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** Each command's usage line and what it does, for `svc help` and `svc <command> --help`. */
const COMMANDS: { name: string; usage: string; about: string }[] = [
  {
    name: 'serve',
    usage: 'svc serve [--role api|worker|all]',
    about: 'Apply migrations, then run the HTTP API and/or the job workers (default: all).',
  },
  { name: 'migrate', usage: 'svc migrate', about: 'Apply the database migrations and exit.' },
  {
    name: 'workspace create',
    usage: 'svc workspace create <slug> [--name N]',
    about: 'Create a workspace; running it again with the same slug returns the existing one.',
  },
  {
    name: 'keys create',
    usage: 'svc keys create --workspace <slug> --mode live|test [--abilities a,b] [--name N]',
    about:
      'Mint an API key (its plaintext is shown once). No --abilities means every ability (*).\n' +
      wrap(`Abilities: ${ABILITIES.join(', ')}.`),
  },
  {
    name: 'keys list',
    usage: 'svc keys list --workspace <slug>',
    about:
      "List the workspace's keys, newest first, revoked ones too, under a header row: id, mode,\n" +
      'status (active or revoked), created_at, hint, abilities, name. The ids are what rotate and\n' +
      'revoke take.',
  },
  {
    name: 'keys rotate',
    usage: 'svc keys rotate <id>',
    about: 'Mint a new key with the same mode and abilities; the old one is revoked at once.',
  },
  { name: 'keys revoke', usage: 'svc keys revoke <id>', about: 'Revoke a key; its next request fails.' },
  {
    name: 'users create',
    usage: 'svc users create --workspace <slug> --email E --password P',
    about: 'Create a dashboard user (or set the password of an existing one).',
  },
  {
    name: 'users delete',
    usage: 'svc users delete --workspace <slug> --email E',
    about: 'Delete a dashboard user; its sessions end at once (a signed-in browser is signed out).',
  },
  {
    name: 'demo',
    usage: 'svc demo',
    about:
      'Create (idempotently) the demo workspace with sample flows, rewards, badges, templates and\n' +
      'participants; print its test and live keys and the dashboard login.',
  },
  { name: 'help', usage: 'svc help [<command>]', about: "Print this help, or one command's." },
];

const FOOTER = `  --json   print exactly one JSON object on stdout (logs go to stderr)
  --help   print a command's own usage (svc keys create --help)
Environment: DATABASE_URL (default: embedded Postgres under ./.svc); the README lists the rest.`;

const USAGE = `svc — loyalty and engagement service

${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}

${FOOTER}`;

/** The usage of the commands a command line names (`keys create`, or every `keys …`), or null. */
function commandUsage(words: (string | undefined)[]): string | null {
  const [cmd, sub] = words;
  if (!cmd) return null;
  const exact = COMMANDS.find((c) => c.name === (sub ? `${cmd} ${sub}` : cmd));
  const matches = exact ? [exact] : sub ? [] : COMMANDS.filter((c) => c.name.startsWith(`${cmd} `));
  if (matches.length === 0) return null;
  return `${matches.map((c) => `${c.usage}\n\n${indent(c.about)}`).join('\n\n')}\n\n${FOOTER}`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

/** A header row and rows as aligned columns, two spaces apart (no trailing spaces). */
function columns(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

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

  if (!cmd && !opts.help) throw new UsageError('no command given');
  if (cmd === 'help' || opts.help) {
    // Asked for: stdout and success. `svc help keys create` and `svc keys create --help` alike.
    const words = cmd === 'help' ? [sub, arg] : [cmd, sub];
    if (!words[0]) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const usage = commandUsage(words);
    if (!usage) throw new UsageError(`unknown command: ${words.filter(Boolean).join(' ')}`);
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (cmd === 'serve') {
    const role = opts.role as 'api' | 'worker' | 'all' | undefined;
    if (role && !['api', 'worker', 'all'].includes(role))
      throw new UsageError('--role must be api, worker or all');
    const starting = startServer(loadConfig(), { role });
    exitOnSignals(starting);
    await starting;
    return -1; // keep running
  }
  if (cmd === 'migrate') {
    await withRuntime(async () => {});
    print(opts, { migrated: true }, 'migrations applied');
    return 0;
  }
  if (cmd === 'workspace' && sub === 'create') {
    const ws = await withRuntime(({ ctx }) =>
      createWorkspace(ctx, parseInput(createWorkspaceInput, { slug: need(arg, '<slug>'), name: opts.name })),
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
      issueKey(
        ctx,
        parseInput(createKeyInput, {
          workspace: need(opts.workspace as string, '--workspace'),
          mode: need(opts.mode as string, '--mode'),
          abilities,
          name: opts.name,
        }),
      ),
    );
    print(
      opts,
      { id: k.id, key: k.key, mode: k.mode, abilities: k.abilities, name: k.name },
      `${k.key}\n(id ${k.id}; shown once, store it now)`,
    );
    return 0;
  }
  if (cmd === 'keys' && sub === 'list') {
    const workspace = need(opts.workspace as string, '--workspace');
    const keys = await withRuntime(({ ctx }) => listKeys(ctx, workspace));
    const data = keys.map((k) => ({
      id: k.id,
      mode: k.mode,
      name: k.name,
      abilities: k.abilities,
      hint: k.hint,
      created_at: k.created_at,
      revoked: k.revoked_at !== null,
    }));
    const table = columns(
      ['id', 'mode', 'status', 'created_at', 'hint', 'abilities', 'name'],
      data.map((k) => [
        k.id,
        k.mode,
        k.revoked ? 'revoked' : 'active',
        k.created_at,
        k.hint,
        k.abilities.join(','),
        k.name ?? '',
      ]),
    );
    print(opts, { data }, data.length ? table : 'no keys');
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
      createUser(
        ctx,
        parseInput(createUserInput, {
          workspace: need(opts.workspace as string, '--workspace'),
          email: opts.email,
          password: opts.password,
        }),
      ),
    );
    print(opts, u, `user ${u.email} (${u.id})`);
    return 0;
  }
  if (cmd === 'users' && sub === 'delete') {
    const u = await withRuntime(({ ctx }) =>
      deleteUserOf(
        ctx,
        need(opts.workspace as string, '--workspace'),
        parseInput(deleteUserInput, { email: need(opts.email as string, '--email') }),
      ),
    );
    print(opts, { ...u, deleted: true }, `user ${u.email} (${u.id}) deleted; its sessions ended`);
    return 0;
  }
  if (cmd === 'demo') {
    const d = await withRuntime(({ ctx }, url) => seedDemo(ctx, url));
    print(
      opts,
      { ...d },
      `workspace ${d.workspace}\ntest key: ${d.test_key}\nlive key: ${d.live_key}\n` +
        `dashboard: ${d.dashboard.email} / ${d.dashboard.password} (workspace ${d.workspace})`,
    );
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
    if (err instanceof StartupError) exitOnStartupError(err);
    if (err instanceof DomainError) {
      const extra = err.extra.errors ? `\n${JSON.stringify(err.extra.errors)}` : '';
      process.stderr.write(`svc: ${err.message}${extra}\n`);
    } else process.stderr.write(`svc: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
