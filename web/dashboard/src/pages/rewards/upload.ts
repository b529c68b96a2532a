import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';
import { codeFileType } from './reward-form.ts';

/** The live/test switch, as every workspace call takes it. */
type Mode = inferRouterInputs<AppRouter>['rewards']['list']['mode'];

export interface UploadResult {
  imported: number;
  skipped_duplicates: number;
  stock_remaining: number;
}

/** A refused upload, in the service's words (its error envelope, docs/api.md#errors), with its field errors. */
export class UploadError extends Error {
  readonly type: string | null;
  readonly fields: { field: string; message: string }[];
  constructor(message: string, type: string | null, fields: { field: string; message: string }[] = []) {
    super(message);
    this.name = 'UploadError';
    this.type = type;
    this.fields = fields;
  }
}

/** The service's error envelope (`{ error: { type, message, errors? } }`) as an UploadError. */
export function uploadErrorOf(status: number, body: unknown): UploadError {
  const e = (body as { error?: { type?: string; message?: string; errors?: UploadError['fields'] } })?.error;
  return new UploadError(e?.message ?? `Upload failed (HTTP ${status})`, e?.type ?? null, e?.errors ?? []);
}

/**
 * Sends a code file to the dashboard's streaming upload route: the File itself is the body, so
 * the browser streams it from disk (no size cap but the service's 200,000 codes / 16 MiB).
 */
export async function uploadCodeFile(rewardId: number, file: File, mode: Mode): Promise<UploadResult> {
  const res = await fetch(`/dashboard/api/rewards/${rewardId}/codes?mode=${mode}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': codeFileType(file) },
    body: file,
  });
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) throw uploadErrorOf(res.status, body);
  return body as UploadResult;
}
