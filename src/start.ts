import { ensureDashboardBuilt } from '../scripts/build-dashboard.ts';
import { loadConfig } from './config.ts';
import { exitOnStartupError } from './errors.ts';
import { exitOnSignals, startServer } from './server.ts';
import { seedDemo } from './services/demo/seed-demo.ts';
import { mintParticipantToken } from './services/participants/mint-token.ts';

// `npm start`: the service on the embedded default (or DATABASE_URL), seeded with the demo
// workspace, printing where everything is, the demo keys and the demo dashboard login.
// The demo's GraphQL and widget may be called from any page (docs/graphql.md#cors); a deployment
// sets its own CORS_ORIGINS.
// A bad setting or a busy port is said in one line (StartupError), not with a stack.
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig({ CORS_ORIGINS: '*', ...process.env });
} catch (err) {
  exitOnStartupError(err);
}
// The dashboard's build, when missing or older than its sources (a failed build leaves /dashboard's 503 page).
const starting = ensureDashboardBuilt()
  .catch((err) => process.stderr.write(`dashboard: build failed: ${err}\n`))
  .then(() => startServer(config));
// Before it is up: a signal during start-up shuts it down once it is.
exitOnSignals(starting);
const running = await starting.catch(exitOnStartupError);
const ctx = running.runtime.ctx;
const { rows } = await ctx.pool.query<{ n: string; demo: boolean }>(
  `select count(*) as n, bool_or(slug = 'demo') as demo from workspaces`,
);
// Demo data goes only into an empty database (or one that already has the demo workspace).
const demo = Number(rows[0]?.n) === 0 || rows[0]?.demo ? await seedDemo(ctx, running.databaseUrl) : null;
const u = running.url;
// A participant token for the demo's `alice` (test mode), for the live widget's demo page.
const widgetToken = demo
  ? await ctx.keys
      .authenticate(`Bearer ${demo.test_key}`)
      .then((who) => mintParticipantToken(ctx, who, 'alice', { ttl_seconds: 86_400 }))
      .then((t) => t.token)
      .catch(() => null)
  : null;
process.stdout.write(`
  svc is running

  Home            ${u}/
  REST API        ${u}/v1        (reference: ${u}/docs, OpenAPI: ${u}/v1/openapi.json)
  GraphQL         ${u}/graphql
  Dashboard       ${u}/dashboard
  Health          ${u}/healthz   ${u}/readyz   ${u}/metrics

${
  demo
    ? `  Demo workspace  ${demo.workspace}
  Test key        ${demo.test_key}
  Live key        ${demo.live_key}
  Dashboard login ${demo.dashboard.email} / ${demo.dashboard.password} (workspace ${demo.workspace})
${
  widgetToken
    ? `  Live widget     ${u}/widget-demo?token=${widgetToken}
                  (alice's balance, live; the first command below changes it)
`
    : ''
}
  Try: an order of 25 for alice; the demo's "1 point per currency unit" flow adds 25 points:

    curl -s ${u}/v1/events -H "Authorization: Bearer ${demo.test_key}" \\
      -H 'Content-Type: application/json' \\
      -d '{"event_type":"order.completed","participant":{"external_id":"alice"},"payload":{"total":25}}'

  then read her balance:

    curl -s ${u}/v1/participants/alice -H "Authorization: Bearer ${demo.test_key}"`
    : '  (database already has workspaces: no demo data added; mint keys with `npx svc keys create`)'
}
`);
