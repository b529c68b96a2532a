import { createHash } from 'node:crypto';
import * as graphiqlBundle from '@graphql-yoga/render-graphiql/graphiql';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { type CORSOptions, createYoga, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { type MemoryAsset, memoryAsset, memoryVariant, sendMemoryAsset } from '../lib/compression.ts';
import { escapeHtml, FAVICON_LINK } from '../rest/landing.ts';
import { createGraphQLContext, type GraphQLContext } from './context.ts';
import { maskError, yogaLogger } from './errors.ts';
import { LIMIT_RULES } from './limits.ts';
import { schema } from './schema.ts';
import { originAllowed } from './socket.ts';

/**
 * GraphQL at /graphql (graphql-yoga over the Pothos schema), a door onto the same services as
 * REST. Callers authenticate with `Authorization: Bearer <API key>`, checked per field with the
 * REST abilities; GraphiQL is served outside production.
 */
export function graphqlHandler(ctx: AppContext): RequestHandler {
  const graphiql = ctx.config.NODE_ENV !== 'production';
  const yoga = createYoga<{ req: Request; res: Response }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL served from the package (no CDN), with the header editor ready for a key or token
    // and a first query that shows what a participant looks like here.
    graphiql: graphiql
      ? {
          title: 'svc GraphQL',
          headers: SAMPLE_HEADERS,
          defaultQuery: SAMPLE_QUERY,
          defaultTabs: [{ query: SAMPLE_QUERY, variables: SAMPLE_VARIABLES, headers: SAMPLE_HEADERS }],
          defaultEditorToolsVisibility: 'headers',
          shouldPersistHeaders: false,
        }
      : false,
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    cors: (request) => corsFor(ctx, request),
    plugins: [limitsPlugin],
    maskedErrors: { maskError },
    logging: yogaLogger(ctx.log),
    context: ({ request, res }) =>
      createGraphQLContext(ctx, request.headers.get('authorization') ?? undefined, res),
  });
  // Bodies are read here, within MAX_BODY_BYTES like /v1; yoga takes the buffer as the body.
  const readBody = express.raw({ type: () => true, limit: ctx.config.MAX_BODY_BYTES });
  return (req, res, next) => {
    if (graphiql && req.method === 'GET' && req.path.startsWith(GRAPHIQL_ASSETS)) {
      graphiqlAsset(req, res, next);
      return;
    }
    readBody(req, res, (err?: unknown) => {
      if (err) return next(bodyError(err, ctx.config.MAX_BODY_BYTES));
      yoga(req, res);
    });
  };
}

/** GraphiQL's first tab: one participant with what the dashboard shows of them. */
export const SAMPLE_QUERY = `# Put an API key (svc_test_… or svc_live_…) or a
# participant token in Headers below, a participant's
# external id in Variables, then run the query.
query Participant($externalId: String!) {
  participant(externalId: $externalId) {
    externalId
    name
    balance
    lifetimePoints
    summary {
      rank
      eventsCount
      badgesCount
      redemptionsCount
      activeMultiplier {
        factor
        expiresAt
      }
    }
    badges {
      key
      tier
      name
      awardedAt
    }
  }
}
`;
const SAMPLE_VARIABLES = JSON.stringify({ externalId: 'alice' }, null, 2);
const SAMPLE_HEADERS = JSON.stringify({ Authorization: 'Bearer YOUR_API_KEY_OR_PARTICIPANT_TOKEN' }, null, 2);

/**
 * GraphiQL's page. The package's own renderer inlines its 9 MB bundle (the app, its stylesheet,
 * three Monaco workers and a 150 KB icon) into every answer, which took 6 s to load; here the
 * page is a few hundred bytes that name those parts as separate files under
 * /graphql/assets/, content-hashed, cached for a year and sent compressed (graphiqlAsset).
 * The options travel as JSON in the page, read by a small start script: no inline script.
 */
const GRAPHIQL_ASSETS = '/assets/';

interface GraphiQLFiles {
  /** URL path (under /graphql) → file. */
  byPath: Map<string, MemoryAsset>;
  /** The paths the page names, by part. */
  css: string;
  js: string;
  boot: string;
  workers: Record<'editorWorkerService' | 'json' | 'graphql', string>;
}

/**
 * Runs before the bundle: Monaco asks for its workers by label, now at their own URLs instead
 * of blob: URLs made from inlined text. Once the bundle has run, GraphiQL renders with the
 * page's options.
 */
const BOOT_JS = `(function () {
  var options = JSON.parse(document.getElementById('graphiql-options').textContent);
  var workers = JSON.parse(document.getElementById('graphiql-workers').textContent);
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) { return workers[label]; },
  };
  window.addEventListener('DOMContentLoaded', function () {
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
  });
})();
`;

let files: GraphiQLFiles | undefined;
/** The files, hashed on first use (a few tens of milliseconds, and never in production). */
function graphiqlFiles(): GraphiQLFiles {
  if (files) return files;
  const byPath = new Map<string, MemoryAsset>();
  const add = (name: string, ext: 'js' | 'css', text: string) => {
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const url = `${GRAPHIQL_ASSETS}${name}-${hash}.${ext}`;
    byPath.set(
      url,
      memoryAsset(text, ext === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8'),
    );
    return `/graphql${url}`;
  };
  files = {
    byPath,
    css: add('graphiql', 'css', graphiqlBundle.css),
    js: add('graphiql', 'js', graphiqlBundle.js),
    boot: add('boot', 'js', BOOT_JS),
    workers: {
      editorWorkerService: add('editor.worker', 'js', graphiqlBundle.editorWorkerService),
      json: add('json.worker', 'js', graphiqlBundle.jsonWorker),
      graphql: add('graphql.worker', 'js', graphiqlBundle.graphqlWorker),
    },
  };
  return files;
}

/** JSON inside a <script> element: no `</script>` or `<!--` can close or open anything. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function renderGraphiQLPage(opts: GraphiQLOptions): string {
  const f = graphiqlFiles();
  // The browser asks for the files next: their brotli versions are made meanwhile, off the
  // event loop, once per process.
  for (const asset of f.byPath.values()) memoryVariant(asset, 'br').catch(() => {});
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(opts.title ?? 'GraphiQL')}</title>
${FAVICON_LINK}
<link rel="stylesheet" href="${f.css}">
<script id="graphiql-options" type="application/json">${scriptJson(opts)}</script>
<script id="graphiql-workers" type="application/json">${scriptJson(f.workers)}</script>
<script src="${f.boot}"></script>
<script src="${f.js}"></script>
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
</body>
</html>
`;
}

/** `GET /graphql/assets/<name>-<hash>.<ext>`: a GraphiQL file, immutable; 404 for any other name. */
function graphiqlAsset(req: Request, res: Response, next: (err?: unknown) => void): void {
  const asset = graphiqlFiles().byPath.get(req.path);
  if (!asset) {
    next(new DomainError('not_found', `No GraphiQL file at ${req.originalUrl.split('?')[0]}`));
    return;
  }
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  sendMemoryAsset(req, res, asset).catch(next);
}

function bodyError(err: unknown, maxBytes: number): unknown {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large')
    return new DomainError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, {
      limit_bytes: maxBytes,
    });
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'encoding.unsupported')
    return new DomainError('invalid_request_error', (err as Error).message);
  return err;
}

/** Depth and cost limits, checked with GraphQL's validation, before anything runs. */
const limitsPlugin: Plugin = {
  onValidate: ({ addValidationRule }) => {
    for (const rule of LIMIT_RULES) addValidationRule(rule);
  },
};

/**
 * CORS for browser callers of /graphql (CORS_ORIGINS; the service's own pages always): the
 * origin is echoed when allowed, and a disallowed origin gets no CORS headers, so the browser
 * refuses the response. Credentials are bearer headers, never cookies.
 */
function corsFor(ctx: AppContext, request: Request | globalThis.Request): CORSOptions | false {
  const origin = (request as globalThis.Request).headers.get('origin') ?? undefined;
  const host = (request as globalThis.Request).headers.get('host') ?? undefined;
  if (!origin || !originAllowed(ctx, origin, host)) return false;
  return {
    origin,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposedHeaders: [
      'x-request-id',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'retry-after',
    ],
    credentials: false,
    maxAge: 600,
  };
}
