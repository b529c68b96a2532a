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

/**
 * Ajv over an OpenAPI document: `resolve` follows a local `#/…` reference (throwing on a dangling
 * one), `compile` validates with the document's component schemas (kept under `$defs` of one
 * schema Ajv knows, so `$ref`s between them resolve; strictSchema stays on, so an unknown keyword
 * fails compilation). Shared by this check and test/openapi.test.ts.
 */
export function documentValidator(doc: Json, base = 'https://svc.invalid/openapi.json') {
  const toAjv = (schema: Json) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${base}#/$defs/`));
  let ajv: Ajv2020 | undefined;
  const resolve = (value: Json): Json => {
    if (!value || typeof value.$ref !== 'string') return value;
    const target = (value.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Json, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    if (target === undefined) throw new Error(`unresolved $ref ${value.$ref}`);
    return resolve(target);
  };
  const compile = (schema: Json): ValidateFunction => {
    if (!ajv) {
      ajv = new Ajv2020({ allErrors: true, strictTypes: false, strictTuples: false });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
      ajv.addSchema({ $id: base, $defs: toAjv(doc.components.schemas) });
    }
    return ajv.compile(toAjv(schema));
  };
  const errorsText = (errors: ValidateFunction['errors']) => ajv!.errorsText(errors);
  return { resolve, compile, errorsText };
}

let state: {
  matchers: Matcher[];
  validator: ReturnType<typeof documentValidator>;
  compiled: Map<string, ValidateFunction>;
} | null = null;

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
  state = { matchers, validator: documentValidator(doc, BASE), compiled: new Map() };
  return state;
}

const literalWeight = (template: string) => template.split('/').filter((s) => s && !s.startsWith('{')).length;

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
  const { validator, compiled } = load();
  const declared = op.responses[String(res.status)];
  if (!declared) throw new Error(`${where} answered ${res.status}, which it does not declare: ${res.text}`);
  const response = validator.resolve(declared);
  const content = response.content as Record<string, { schema: Json }> | undefined;
  const json = content?.['application/json'];
  if (!json) return;
  if (!res.contentType?.startsWith('application/json'))
    throw new Error(`${where} ${res.status} declares JSON but sent ${res.contentType}`);
  const key = `${where} ${res.status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = validator.compile(json.schema);
    compiled.set(key, validate);
  }
  if (!validate(res.body))
    throw new Error(
      `${key}: the body does not match the declared schema: ${validator.errorsText(validate.errors)}\n${res.text.slice(0, 2000)}`,
    );
}
