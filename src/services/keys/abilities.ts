/** Every ability a key can hold (docs/api.md#keys-modes-and-abilities); `*` grants all of them. */
export const ABILITIES = [
  'events:write',
  'events:read',
  'participants:read',
  'participants:write',
  'points:adjust',
  'redemptions:write',
  'participants:erase',
  'exports:write',
  'rewards:write',
  'flows:read',
  'flows:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Ability = (typeof ABILITIES)[number];

/** Whether the granted abilities (`*` for all) include `needed`. */
export function hasAbility(granted: readonly string[], needed: Ability): boolean {
  return granted.includes('*') || granted.includes(needed);
}
