import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildDocument } from '../src/rest/openapi.ts';

/**
 * Every REST response a test receives is checked against its operation's declaration: the
 * status must be declared, and a JSON body must match the declared schema exactly (a closed copy
 * of the OpenAPI document, so a presenter that adds or drops a field fails the test that saw it).
 * `request()` in helpers.ts calls this for every response; nothing needs to opt in.
 */

type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const BASE = 'https://svc.invalid/closed-openapi.json';

interface Matcher {
  method: string;
  pattern: RegExp;
  template: string;
  responses: Record<string, Json>;
}

let state: { doc: Json; matchers: Matcher[]; ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | null =
  null;

function load() {
  if (state) return state;
  const doc = buildDocument(undefined, { closedResponses: true }) as Json;
  const matchers: Matcher[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`,
    );
    for (const method of METHODS)
      if (item[method]) matchers.push({ method, pattern, template, responses: item[method].responses });
  }
  // Literal segments first, so `/v1/rewards/{id}` never shadows a more specific sibling.
  matchers.sort((a, b) => literalWeight(b.template) - literalWeight(a.template));
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false, strictTuples: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
  ajv.addSchema({ $id: BASE, $defs: toAjv(doc.components.schemas) });
  state = { doc, matchers, ajv, compiled: new Map() };
  return state;
}

const literalWeight = (template: string) => template.split('/').filter((s) => s && !s.startsWith('{')).length;

const toAjv = (schema: Json) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}#/$defs/`));

function resolve(doc: Json, value: Json): Json {
  if (!value || typeof value.$ref !== 'string') return value;
  const target = (value.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  return resolve(doc, target);
}

/** The declared operation serving `method path`, or null (GraphQL, tRPC, unknown routes). */
export function declaredOperation(
  method: string,
  path: string,
): { template: string; responses: Json } | null {
  const { matchers } = load();
  const pathname = new URL(path, 'http://x').pathname;
  const m = matchers.find((x) => x.method === method.toLowerCase() && x.pattern.test(pathname));
  return m ? { template: m.template, responses: m.responses } : null;
}

/** Throws when a response does not match its operation's declaration. */
export function checkResponse(
  method: string,
  path: string,
  res: { status: number; contentType: string | null; body: unknown; text: string },
): void {
  const op = declaredOperation(method, path);
  if (!op) return;
  const where = `${method.toUpperCase()} ${op.template}`;
  const { doc, ajv, compiled } = load();
  const declared = op.responses[String(res.status)];
  if (!declared) throw new Error(`${where} answered ${res.status}, which it does not declare: ${res.text}`);
  const response = resolve(doc, declared);
  const content = response.content as Record<string, { schema: Json }> | undefined;
  const json = content?.['application/json'];
  if (!json) return;
  if (!res.contentType?.startsWith('application/json'))
    throw new Error(`${where} ${res.status} declares JSON but sent ${res.contentType}`);
  const key = `${where} ${res.status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(toAjv(json.schema));
    compiled.set(key, validate);
  }
  if (!validate(res.body))
    throw new Error(
      `${key}: the body does not match the declared schema: ${ajv.errorsText(validate.errors)}\n${res.text.slice(0, 2000)}`,
    );
}
