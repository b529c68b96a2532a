import type { ReferralProgramSettings } from './shapes.ts';

/**
 * Stored programme settings as the engine and the job read them: a field added later reads its
 * default (`advocate_limit` none, `active` true). They were validated when saved.
 */
export function referralProgramFrom(stored: Record<string, unknown>): ReferralProgramSettings {
  return { advocate_limit: null, active: true, ...stored } as ReferralProgramSettings;
}
