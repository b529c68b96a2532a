import type { NextExpiryDto } from '../services/points/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

/** The soonest expiry of a participant's open points (docs/points.md#reads). */
export const NextExpiry = builder.objectRef<NextExpiryDto>('NextExpiry').implement({
  description: 'The soonest expiry among a participant’s open points, and how many expire then.',
  fields: mirror((t) => ({
    points: t.expose('points', { type: PointsScalar }),
    expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
  })),
});
