import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Response compression, in two forms:
 *
 * - Static files (the dashboard's build, the widget, GraphiQL's bundle) are compressed once,
 *   at build time or on first use, at the strongest setting, and a request picks the `.br` or
 *   `.gz` variant from its Accept-Encoding (`pickEncoding`). Compressing a 500 KB chunk with
 *   brotli's best setting takes about a second: worth it once, never per request.
 * - Dynamic responses (JSON above 1 KB, the few HTML pages) go through the `compression`
 *   middleware (`compressResponses`), which negotiates brotli or gzip per request at a fast
 *   setting. Streams are never compressed by it: SSE (`text/event-stream`), multipart GraphQL
 *   responses, export downloads (CSV / NDJSON attachments) would be held back in the
 *   compressor's buffer or wrapped a second time.
 */

export type Encoding = 'br' | 'gzip';

/** The file suffix of each encoding's variant, strongest first (the order `pickEncoding` prefers). */
export const VARIANTS: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const PREFERENCE = Object.keys(VARIANTS) as Encoding[];

/**
 * The best encoding the client accepts among `available` (brotli before gzip at equal weight),
 * or null for identity. Browsers send `gzip, deflate, br, zstd` with no weights, so the order
 * of the header says nothing; an explicit `q=0` (or `*;q=0`) refuses an encoding.
 */
export function pickEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[] = PREFERENCE,
): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (token) weights.set(token.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of PREFERENCE) {
    if (!available.includes(encoding)) continue;
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * `body` compressed with `encoding`. `best` (the build step) takes brotli's strongest setting,
 * about 3 s per MB for 5 to 15 % less than quality 5; compressing on a first request (a file
 * held in memory) takes quality 5 above 64 KB, about 100 ms per MB, so that request is not
 * held for seconds.
 */
export function compressBuffer(body: Buffer, encoding: Encoding, { best = false } = {}): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  const quality = best || body.length <= 64 * 1024 ? zlib.constants.BROTLI_MAX_QUALITY : 5;
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** The file types worth compressing ahead of time (fonts and images other than SVG already are). */
const PRECOMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/i;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file under `dir` (the build step,
 * scripts/build-dashboard.ts), each only when it is smaller than the file itself. Returns the
 * files it compressed and their sizes, for the build's log.
 */
export async function precompressDir(
  dir: string,
): Promise<{ file: string; bytes: number; br: number | null; gzip: number | null }[]> {
  const files: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && PRECOMPRESSIBLE.test(entry.name)) files.push(full);
    }
  };
  await walk(dir);
  return Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      const sizes = { br: null as number | null, gzip: null as number | null };
      for (const encoding of PREFERENCE) {
        const packed = await compressBuffer(body, encoding, { best: true });
        if (packed.length >= body.length) continue;
        await writeFile(file + VARIANTS[encoding], packed);
        sizes[encoding] = packed.length;
      }
      return { file: path.relative(dir, file), bytes: body.length, ...sizes };
    }),
  );
}

/** A path inside a served directory that names no parent and no dotfile (variant lookups only). */
const SAFE_RELATIVE = /^(?!.*(?:^|\/)\.)[^\\\0]+$/;

/**
 * The precompressed variant of `relative` under `root` that this request takes, if one was
 * written: `{ file, encoding }` with `file` relative to `root`. `hasVariants` says whether any
 * variant exists at all, so the caller sets `Vary: Accept-Encoding` on the identity answer too
 * (a shared cache must not hand a brotli body to a client that cannot read it, nor the reverse).
 */
export async function precompressedVariant(
  req: Request,
  root: string,
  relative: string,
): Promise<{ hasVariants: boolean; variant: { file: string; encoding: Encoding } | null }> {
  if (!SAFE_RELATIVE.test(relative)) return { hasVariants: false, variant: null };
  const present = (
    await Promise.all(
      PREFERENCE.map(async (encoding) => {
        const s = await stat(path.join(root, relative + VARIANTS[encoding])).catch(() => null);
        return s?.isFile() ? encoding : null;
      }),
    )
  ).filter((e): e is Encoding => e !== null);
  const encoding = pickEncoding(req.headers['accept-encoding'], present);
  return {
    hasVariants: present.length > 0,
    variant: encoding ? { file: relative + VARIANTS[encoding], encoding } : null,
  };
}

/** A file held in memory (the widget bundle, GraphiQL's assets), compressed on first demand. */
export interface MemoryAsset {
  body: Buffer;
  /** Content-Type. */
  type: string;
  variants: Partial<Record<Encoding, Promise<Buffer>>>;
}

export const memoryAsset = (body: string | Buffer, type: string): MemoryAsset => ({
  body: typeof body === 'string' ? Buffer.from(body) : body,
  type,
  variants: {},
});

/** The asset compressed with `encoding`: compressed on the first call, the same promise after. */
export function memoryVariant(asset: MemoryAsset, encoding: Encoding): Promise<Buffer> {
  let packed = asset.variants[encoding];
  if (!packed) {
    packed = compressBuffer(asset.body, encoding);
    asset.variants[encoding] = packed;
    // A failed compression is tried again by the next request rather than remembered.
    packed.catch(() => delete asset.variants[encoding]);
  }
  return packed;
}

/**
 * Sends a memory asset in the encoding the request takes (compressed once, then reused), with
 * `Vary: Accept-Encoding` and the caller's other headers already set on `res`.
 */
export async function sendMemoryAsset(req: Request, res: Response, asset: MemoryAsset): Promise<void> {
  res.vary('Accept-Encoding');
  res.setHeader('Content-Type', asset.type);
  const encoding =
    asset.body.length >= COMPRESS_THRESHOLD ? pickEncoding(req.headers['accept-encoding']) : null;
  if (!encoding) {
    res.send(asset.body);
    return;
  }
  const body = await memoryVariant(asset, encoding);
  res.setHeader('Content-Encoding', encoding);
  res.send(body);
}

/**
 * What the dynamic middleware compresses: JSON (`application/json`, `…+json` such as GraphQL's
 * `application/graphql-response+json`) and the text pages and scripts the service renders.
 * Not `application/jsonl` or NDJSON (streamed lines), not `text/event-stream`, not multipart,
 * not CSV, and never an attachment (an export download streams from disk with its length).
 */
const DYNAMIC =
  /^\s*(application\/(?:[\w.-]+\+)?json|text\/html|text\/css|text\/javascript|application\/javascript|image\/svg\+xml)\s*(;|$)/i;

export function shouldCompress(_req: Request, res: Response): boolean {
  const type = res.getHeader('Content-Type');
  if (typeof type !== 'string' || !DYNAMIC.test(type)) return false;
  const disposition = res.getHeader('Content-Disposition');
  return !(typeof disposition === 'string' && /^\s*attachment/i.test(disposition));
}

/** Bodies below this many bytes are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * The dynamic compression middleware: brotli (quality 4, the package's default) or gzip
 * (level 6), negotiated from Accept-Encoding, for what `shouldCompress` allows above
 * COMPRESS_THRESHOLD bytes. A response that already carries a Content-Encoding (a precompressed
 * file) or `Cache-Control: no-transform` is left alone by the package itself.
 */
export function compressResponses(): RequestHandler {
  return compression({ filter: shouldCompress, threshold: COMPRESS_THRESHOLD }) as RequestHandler;
}
