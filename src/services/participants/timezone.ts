import { z } from 'zod';
import { isTimeZone } from '../points/rules.ts';

// Names already checked: every ingested event with a participant time zone asks (ingest is hot).
const known = new Map<string, boolean>();
const isKnownTimeZone = (name: string): boolean => {
  let ok = known.get(name);
  if (ok === undefined) {
    ok = isTimeZone(name);
    if (known.size >= 1000) known.clear();
    known.set(name, ok);
  }
  return ok;
};

/** A participant's IANA time zone (docs/engagement.md#streaks). */
export const timezoneShape = z
  .string()
  .max(64)
  .refine(isKnownTimeZone, 'must be an IANA time zone name, e.g. Asia/Tokyo')
  .meta({ description: 'IANA time zone of the participant’s streak periods, e.g. `Asia/Tokyo`.' });
