/** Every ability a key can hold (SPEC 5.2 + CONTRACT 4); `*` grants all of them. */
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

export function hasAbility(granted: readonly string[], needed: Ability): boolean {
  return granted.includes('*') || granted.includes(needed);
}
