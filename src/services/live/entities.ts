import { defineEntity, p } from '@mikro-orm/core';

/**
 * Which participants some API process is serving live subscribers for (one row per hub and
 * participant). The `svc_live` triggers NOTIFY only for watched participants, so writes nobody
 * watches never take Postgres's global notify lock at commit (which serialises committing
 * transactions). A hub removes its rows when its last subscriber for a participant leaves and
 * when it closes; rows a crashed process leaves behind cost only unneeded NOTIFYs.
 */
const LiveWatchSchema = defineEntity({
  name: 'LiveWatch',
  tableName: 'live_watches',
  properties: {
    participantId: p.bigint('string').primary(),
    hubId: p.uuid().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class LiveWatch extends LiveWatchSchema.class {}
LiveWatchSchema.setClass(LiveWatch);
