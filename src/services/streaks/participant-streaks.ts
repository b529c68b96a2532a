import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { programFrom } from '../points/program.ts';
import { rulesOf } from './definitions.ts';
import { streakRowsOfMany } from './repository.ts';
import { PeriodFinder, viewAt } from './rules.ts';
import type { ParticipantStreakDto } from './shapes.ts';
import { type StateRow, stateOf } from './state.sql.ts';

/**
 * `GET /v1/participants/{external_id}/streaks`: every running streak as it stands now in the
 * participant's time zone, the periods passed since their row was last written accounted for
 * (docs/engagement.md#reading-a-participants-streaks). One statement.
 */
export async function participantStreaks(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  now = new Date(),
): Promise<{ data: ParticipantStreakDto[] }> {
  const [one] = await streaksOfMany(ctx, who, [externalId], now);
  if (one instanceof Error) throw one;
  return { data: one! };
}

/**
 * {@link participantStreaks} for many participants (GraphQL's nested `streaks` of a list), in two
 * statements whatever their number: per external id, in order, the list or the 404 the single
 * read would throw.
 */
export async function streaksOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
  now = new Date(),
): Promise<(ParticipantStreakDto[] | Error)[]> {
  const rows = await streakRowsOfMany(ctx.pool, who, externalIds);
  // The programme's settings come with every row (the same for all): no second statement.
  const programme = programFrom(rows[0]?.settings).timezone;
  const finder = new PeriodFinder();
  const found = new Map<string, ParticipantStreakDto[]>();
  for (const r of rows) {
    const list = found.get(r.external_id) ?? [];
    found.set(r.external_id, list);
    if (r.id === null) continue; // no running streak
    list.push({
      key: r.key,
      name: r.name,
      frequency: r.frequency,
      ...viewAt(
        r.has_state ? stateOf(r as StateRow) : null,
        rulesOf(r),
        now,
        r.timezone ?? programme,
        finder,
      ),
    });
  }
  return externalIds.map((id) => found.get(id) ?? notFound('participant'));
}
