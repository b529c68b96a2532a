import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { issueKey, revokeKey } from '../src/services/keys/manage-keys.ts';
import { authenticateUser } from '../src/services/workspaces/authenticate-user.ts';
import { createUser } from '../src/services/workspaces/create-user.ts';
import { createWorkspace } from '../src/services/workspaces/create-workspace.ts';
import { findSession, startSession } from '../src/services/workspaces/sessions.ts';
import { runSvc, type SvcRun } from './factories.ts';
import { freshDatabase, request, TEST_SECRET, testEnv } from './helpers.ts';

let databaseUrl: string;
let stateDir: string;
/** A server on the CLI's database, to prove that the keys the CLI prints work. */
let server: RunningServer;

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
  server = await startServer(loadConfig(testEnv(databaseUrl)), { role: 'api' });
});
afterAll(async () => {
  await server?.shutdown();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/**
 * The real `svc` command on this file's database and state directory. Logs are turned up to
 * debug so anything leaking onto stdout would show.
 */
const svc = (args: string[], opts: { via?: 'bin' | 'npx'; env?: Record<string, string> } = {}) =>
  runSvc(
    args,
    {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SVC_STATE_DIR: stateDir,
      SVC_SECRET: TEST_SECRET,
      LOG_LEVEL: 'debug',
      ...opts.env,
    },
    opts.via,
  );

/** Exit 0 and exactly one JSON object, alone on stdout. */
function json(run: SvcRun): Record<string, any> {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  const value = JSON.parse(run.stdout);
  expect(value).toBeTypeOf('object');
  expect(Array.isArray(value)).toBe(false);
  return value;
}

const keyWorks = async (key: string) =>
  (
    await request(server.url, '/v1/events', {
      key,
      body: { event_type: 'cli.checked', participant: { external_id: 'cli' } },
    })
  ).status;

describe('svc workspace create', () => {
  it('prints exactly {id, slug, name} and is idempotent on slug', async () => {
    const first = json(await svc(['workspace', 'create', 'acme', '--name', 'Acme', '--json']));
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), slug: 'acme', name: 'Acme' });
    const again = json(await svc(['workspace', 'create', 'acme', '--name', 'Other name', '--json']));
    expect(again).toEqual(first);
    const { rows } = await server.runtime.ctx.pool.query(`select 1 from workspaces where slug = 'acme'`);
    expect(rows).toHaveLength(1);
  });

  it('works through `npx svc` from the repository root', async () => {
    const run = await svc(['workspace', 'create', 'via-npx', '--json'], { via: 'npx' });
    expect(json(run)).toEqual({ id: expect.any(String), slug: 'via-npx', name: 'via-npx' });
  });
});

describe('svc keys', () => {
  it('create → {id, key, mode, abilities, name}; the key works with exactly its abilities', async () => {
    await createWorkspace(server.runtime.ctx, { slug: 'keys-ws' });
    const k = json(
      await svc([
        'keys',
        'create',
        '--workspace',
        'keys-ws',
        '--mode',
        'test',
        '--abilities',
        'events:write,events:read',
        '--json',
      ]),
    );
    expect(k).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^svc_test_[A-Za-z0-9]{40}$/),
      mode: 'test',
      abilities: ['events:write', 'events:read'],
      name: null,
    });
    expect(await keyWorks(k.key)).toBe(202);
    expect((await request(server.url, '/v1/events', { key: k.key })).status).toBe(200);
    expect((await request(server.url, '/v1/event-types', { key: k.key })).status).toBe(403);

    const full = json(
      await svc(['keys', 'create', '--workspace', 'keys-ws', '--mode', 'live', '--name', 'ops', '--json']),
    );
    expect(full).toMatchObject({ mode: 'live', abilities: ['*'], name: 'ops' });
    expect(full.key).toMatch(/^svc_live_[A-Za-z0-9]{40}$/);
    expect(await keyWorks(full.key)).toBe(202);
  });

  it('rotate → {id, key, mode, abilities, revoked_id}; revoke → {id, revoked: true}; both take effect at once', async () => {
    await createWorkspace(server.runtime.ctx, { slug: 'rotate-ws' });
    const old = json(
      await svc([
        'keys',
        'create',
        '--workspace',
        'rotate-ws',
        '--mode',
        'test',
        '--abilities',
        'events:write',
        '--json',
      ]),
    );
    expect(await keyWorks(old.key)).toBe(202);

    const rotated = json(await svc(['keys', 'rotate', old.id, '--json']));
    expect(rotated).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^svc_test_[A-Za-z0-9]{40}$/),
      mode: 'test',
      abilities: ['events:write'],
      revoked_id: old.id,
    });
    expect(rotated.id).not.toBe(old.id);
    expect(await keyWorks(old.key)).toBe(401);
    expect(await keyWorks(rotated.key)).toBe(202);

    expect(json(await svc(['keys', 'revoke', rotated.id, '--json']))).toEqual({
      id: rotated.id,
      revoked: true,
    });
    expect(await keyWorks(rotated.key)).toBe(401);

    const again = await svc(['keys', 'rotate', old.id, '--json']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^svc: .*revoked/m);
  }, 60_000); // spawns several CLI processes and a server: slow on a loaded machine
});

describe('svc users create', () => {
  it('prints {id, email} and stores a password hash, not the password', async () => {
    await createWorkspace(server.runtime.ctx, { slug: 'users-ws' });
    const user = json(
      await svc([
        'users',
        'create',
        '--workspace',
        'users-ws',
        '--email',
        'Admin@Example.com',
        '--password',
        'correct horse battery',
        '--json',
      ]),
    );
    expect(user).toEqual({ id: expect.any(String), email: 'admin@example.com' });
    const { rows } = await server.runtime.ctx.pool.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [user.id],
    );
    expect(rows[0]?.password_hash).toMatch(/^scrypt\$/);
    expect(rows[0]?.password_hash).not.toContain('correct horse');
  });
});

describe('svc users delete', () => {
  it('deletes the user and ends its sessions; an unknown user exits 1', async () => {
    const ctx = server.runtime.ctx;
    await createWorkspace(ctx, { slug: 'users-del' });
    const password = 'correct horse battery';
    const user = json(
      await svc([
        'users',
        'create',
        '--workspace',
        'users-del',
        '--email',
        'gone@example.com',
        '--password',
        password,
        '--json',
      ]),
    );
    await authenticateUser(ctx, { workspace: 'users-del', email: 'gone@example.com', password });
    const { token } = await startSession(ctx, user.id);
    expect(await findSession(ctx, token)).not.toBeNull();

    const deleted = json(
      await svc(['users', 'delete', '--workspace', 'users-del', '--email', 'Gone@Example.com', '--json']),
    );
    expect(deleted).toEqual({ id: user.id, email: 'gone@example.com', deleted: true });
    expect(await findSession(ctx, token)).toBeNull();
    await expect(
      authenticateUser(ctx, { workspace: 'users-del', email: 'gone@example.com', password }),
    ).rejects.toMatchObject({ type: 'authentication_error' });

    const again = await svc(['users', 'delete', '--workspace', 'users-del', '--email', 'gone@example.com']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^svc: .*not found/m);
  }, 60_000); // spawns several CLI processes and a server: slow on a loaded machine
});

describe('svc demo', () => {
  it('prints {workspace, test_key, live_key}, is idempotent, and its keys work against the server', async () => {
    const first = json(await svc(['demo', '--json']));
    expect(first).toEqual({
      workspace: 'demo',
      test_key: expect.stringMatching(/^svc_test_[A-Za-z0-9]{40}$/),
      live_key: expect.stringMatching(/^svc_live_[A-Za-z0-9]{40}$/),
      dashboard: { email: 'demo@example.com', password: expect.stringMatching(/^\S{12,}$/) },
    });
    const second = json(await svc(['demo', '--json']));
    expect(second).toEqual(first);

    const pool = server.runtime.ctx.pool;
    const keys = await pool.query(
      `select k.mode from api_keys k join workspaces w on w.id = k.workspace_id where w.slug = 'demo'`,
    );
    expect(keys.rows).toHaveLength(2);
    const events = await pool.query<{ mode: string; n: string }>(
      `select e.mode, count(*) as n from events e join workspaces w on w.id = e.workspace_id
        where w.slug = 'demo' group by e.mode order by e.mode`,
    );
    expect(events.rows.map((r) => [r.mode, Number(r.n)])).toEqual([
      ['live', 4],
      ['test', 4],
    ]);

    expect(await keyWorks(first.test_key)).toBe(202);
    const live = await request(server.url, '/v1/events?limit=200', { key: first.live_key });
    expect(live.status).toBe(200);
    expect(live.body.data).toHaveLength(4);
    expect(live.body.data.every((e: { is_sandbox: boolean }) => e.is_sandbox === false)).toBe(true);
    // Points expire 12 months after they are earned, at the end of that month (docs/points.md).
    for (const key of [first.test_key, first.live_key]) {
      const program = await request(server.url, '/v1/program', { key });
      expect(program.body.points_expiry).toEqual({ mode: 'fixed', after: 'P12M', round_to: 'month' });
      // One weekly streak, once however many runs (docs/demo.md).
      const streaks = await request(server.url, '/v1/streaks?include_archived=true', { key });
      expect(streaks.body.data.map((s: { key: string }) => s.key)).toEqual(['weekly-order']);
    }

    // The printed dashboard login signs in, after every run.
    const signIn = await authenticateUser(server.runtime.ctx, {
      workspace: first.workspace,
      email: first.dashboard.email,
      password: first.dashboard.password,
    });
    expect(signIn).toMatchObject({ email: 'demo@example.com', workspace: { slug: 'demo' } });
    const users = await pool.query(
      `select u.email from users u join workspaces w on w.id = u.workspace_id where w.slug = 'demo'`,
    );
    expect(users.rows).toEqual([{ email: 'demo@example.com' }]);

    const file = path.join(stateDir, 'demo-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8')))).toEqual([
      { test_key: first.test_key, live_key: first.live_key },
    ]);
  }, 60_000); // spawns several CLI processes and a server: slow on a loaded machine
});

describe("svc demo and the demo user's sessions", () => {
  it('keeps them while the password is unchanged; a new password ends them', async () => {
    const ctx = server.runtime.ctx;
    const demo = json(await svc(['demo', '--json']));
    const { id: userId } = await authenticateUser(ctx, {
      workspace: 'demo',
      email: demo.dashboard.email,
      password: demo.dashboard.password,
    });
    const hashOf = async () => {
      const sql = 'select password_hash from users where id = $1';
      return (await ctx.pool.query<{ password_hash: string }>(sql, [userId])).rows[0]?.password_hash;
    };
    const { token } = await startSession(ctx, userId);
    const hash = await hashOf();

    // `npm start` and `svc demo` seed again on every run: the dashboard stays signed in.
    expect(json(await svc(['demo', '--json']))).toEqual(demo);
    expect(await findSession(ctx, token)).not.toBeNull();
    expect(await hashOf()).toBe(hash);
    // So does setting the same password by hand.
    const same = ['users', 'create', '--workspace', 'demo', '--email', demo.dashboard.email];
    json(await svc([...same, '--password', demo.dashboard.password, '--json']));
    expect(await findSession(ctx, token)).not.toBeNull();

    // A real change ends them; the next `svc demo` sets the printed password back (a change too).
    json(await svc([...same, '--password', 'another password entirely', '--json']));
    expect(await findSession(ctx, token)).toBeNull();
    const { token: again } = await startSession(ctx, userId);
    json(await svc(['demo', '--json']));
    expect(await findSession(ctx, again)).toBeNull();
    await expect(authenticateUser(ctx, { workspace: 'demo', ...demo.dashboard })).resolves.toMatchObject({
      id: userId,
    });
  }, 90_000); // spawns five CLI processes: slow on a loaded machine

  it('rewrites an unchanged password of older scrypt parameters without ending the sessions', async () => {
    const ctx = server.runtime.ctx;
    await createWorkspace(ctx, { slug: 'rehash-ws' });
    const login = { workspace: 'rehash-ws', email: 'old@example.com', password: 'an old password' };
    const { id } = await createUser(ctx, login);
    // The first hash format: Node's default scrypt parameters (N=2^14, r=8, p=1).
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('base64url')}$${scryptSync(login.password, salt, 32).toString('base64url')}`;
    await ctx.pool.query('update users set password_hash = $2 where id = $1', [id, legacy]);
    const { token } = await startSession(ctx, id);

    await createUser(ctx, login);
    expect(await findSession(ctx, token)).not.toBeNull();
    const { rows } = await ctx.pool.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [id],
    );
    expect(rows[0]?.password_hash).toMatch(/^scrypt\$ln=15,r=8,p=3\$/);
    await expect(authenticateUser(ctx, login)).resolves.toMatchObject({ id });
  });
});

describe('svc demo without --json', () => {
  it('prints the keys and the dashboard login in words', async () => {
    const run = await svc(['demo']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^workspace demo\ntest key: svc_test_\w+\nlive key: svc_live_\w+\n/);
    expect(run.stdout).toMatch(/^dashboard: demo@example\.com \/ \S+ \(workspace demo\)$/m);
  });
});

describe('svc keys list', () => {
  it('lists every key of the workspace, revoked ones too, with the ids rotate and revoke take', async () => {
    const ctx = server.runtime.ctx;
    await createWorkspace(ctx, { slug: 'list-ws' });
    const test = await issueKey(ctx, { workspace: 'list-ws', mode: 'test', abilities: [], name: 'ci' });
    const live = await issueKey(ctx, { workspace: 'list-ws', mode: 'live', abilities: ['events:write'] });
    await revokeKey(ctx, test.id);

    const listed = json(await svc(['keys', 'list', '--workspace', 'list-ws', '--json']));
    expect(listed).toEqual({
      data: [
        {
          id: live.id,
          mode: 'live',
          name: null,
          abilities: ['events:write'],
          hint: expect.stringMatching(/^svc_live_/),
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          revoked: false,
        },
        {
          id: test.id,
          mode: 'test',
          name: 'ci',
          abilities: ['*'],
          hint: expect.stringMatching(/^svc_test_/),
          created_at: expect.any(String),
          revoked: true,
        },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain(live.key);

    const human = await svc(['keys', 'list', '--workspace', 'list-ws']);
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const [header, first, second] = lines as [string, string, string];
    expect(header.split(/\s+/)).toEqual(['id', 'mode', 'status', 'created_at', 'hint', 'abilities', 'name']);
    expect(first).toMatch(new RegExp(`^${live.id}\\s+live\\s+active\\s+\\d{4}-`));
    expect(second).toMatch(new RegExp(`^${test.id}\\s+test\\s+revoked\\s+\\d{4}-.*\\*\\s+ci$`));
    // Aligned: every column starts at the same place on every line, and no line ends in spaces.
    for (const name of ['mode', 'status', 'created_at', 'hint', 'abilities']) {
      const at = header.indexOf(name);
      for (const line of [first, second]) expect(line.slice(at - 2, at)).toBe('  ');
      for (const line of [first, second]) expect(line[at]).not.toBe(' ');
    }
    for (const line of lines) expect(line).toBe(line.trimEnd());
    expect(first.endsWith('events:write')).toBe(true);
  });

  it('fails clearly for an unknown workspace and without --workspace', async () => {
    const unknown = await svc(['keys', 'list', '--workspace', 'nope', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^svc: .*not found/m);
    const missing = await svc(['keys', 'list']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^svc: missing --workspace/);
  });
});

describe('svc help', () => {
  it.each<[string, string[]]>([
    ['svc help', ['help']],
    ['svc --help', ['--help']],
    ['svc -h', ['-h']],
  ])('%s prints the general help on stdout and exits 0', async (_name, args) => {
    const run = await svc(args);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const line of ['svc keys create --workspace <slug>', 'svc keys list --workspace <slug>', 'svc demo'])
      expect(run.stdout).toContain(line);
  });

  it.each<[string, string[]]>([
    ['svc keys create --help', ['keys', 'create', '--help']],
    ['svc help keys create', ['help', 'keys', 'create']],
    ['svc keys create -h --workspace x', ['keys', 'create', '-h', '--workspace', 'x']],
  ])("%s prints that command's own usage, not the general help", async (_name, args) => {
    const run = await svc(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^svc keys create --workspace <slug> --mode live\|test/);
    expect(run.stdout).toContain('points:adjust');
    expect(run.stdout).not.toContain('svc keys rotate <id>');
    expect(run.stdout).not.toContain('svc serve');
  });

  it('svc keys --help lists every keys command; svc serve --help does not start a server', async () => {
    const keys = await svc(['keys', '--help']);
    expect(keys.code).toBe(0);
    for (const sub of ['create', 'list', 'rotate', 'revoke'])
      expect(keys.stdout).toContain(`svc keys ${sub}`);
    expect(keys.stdout).not.toContain('svc users create');
    const serve = await svc(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toMatch(/^svc serve \[--role api\|worker\|all\]/);
  });

  it.each<[string, string[]]>([
    ['svc help frobnicate', ['help', 'frobnicate']],
    ['svc frobnicate --help', ['frobnicate', '--help']],
    ['svc keys frobnicate --help', ['keys', 'frobnicate', '--help']],
  ])('%s fails as an unknown command (exit 2, usage on stderr)', async (_name, args) => {
    const run = await svc(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^svc: unknown command: \w/);
    expect(run.stderr).toContain('svc keys create --workspace <slug>');
  });
});

describe('svc migrate', () => {
  it('applies migrations and exits 0 (one JSON object with --json, a line without)', async () => {
    json(await svc(['migrate', '--json']));
    const human = await svc(['migrate']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^migrations applied\n$/);
  });
});

describe('bad usage', () => {
  it.each<[string, string[]]>([
    ['no command', []],
    ['an unknown command', ['frobnicate']],
    ['an unknown subcommand', ['keys', 'frobnicate']],
    ['an unknown option', ['workspace', 'create', 'x', '--bogus']],
    ['an option without its value', ['keys', 'create', '--workspace', 'acme', '--mode', 'test', '--name']],
    ['a missing positional', ['workspace', 'create', '--json']],
    ['a missing required option', ['keys', 'create', '--workspace', 'acme', '--json']],
    ['an unknown role', ['serve', '--role', 'boss']],
  ])('exits 2 with a message and the usage on stderr for %s', async (_name, args) => {
    const run = await svc(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^svc: \S/);
    expect(run.stderr).toContain('svc keys create --workspace <slug>');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it.each<[string, string[], RegExp]>([
    [
      'an unknown workspace',
      ['keys', 'create', '--workspace', 'nope', '--mode', 'test', '--json'],
      /not found/,
    ],
    ['an invalid mode', ['keys', 'create', '--workspace', 'acme', '--mode', 'prod', '--json'], /mode/],
    [
      'an unknown ability',
      ['keys', 'create', '--workspace', 'acme', '--mode', 'test', '--abilities', 'x:y'],
      /abilities/,
    ],
    ['a key id that is no key id', ['keys', 'rotate', 'not-a-key-id', '--json'], /api key not found/],
    [
      'an unknown key',
      ['keys', 'revoke', '01a20241-0000-7000-8000-000000000000', '--json'],
      /api key not found/,
    ],
    ['an invalid slug', ['workspace', 'create', 'Not A Slug', '--json'], /slug/],
    [
      'an invalid e-mail',
      ['users', 'create', '--workspace', 'acme', '--email', 'nope', '--password', 'long enough'],
      /email/,
    ],
  ])('exits 1 with a one-line reason and no stack trace for %s', async (_name, args, reason) => {
    const run = await svc(args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const message = run.stderr.split('\n').find((l) => l.startsWith('svc: '));
    expect(message).toMatch(reason);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('prints the usage on stdout and exits 0 for --help', async () => {
    const run = await svc(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('svc keys rotate <id>');
  });
});
