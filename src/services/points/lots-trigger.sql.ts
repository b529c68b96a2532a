// Raw SQL: the lots under the ledger (docs/points.md#lots), kept by the database itself so every
// statement that posts entries (the engine's batch insert, the redemption's single statement, an
// adjustment, a reversal) opens and consumes lots in its own round trip, and no code path can
// forget them. A statement trigger with a transition table: one INSERT … SELECT opens the lots of
// every credit of the statement (bench suite `engine`), debits are few per statement.
//
// Why in a trigger and not in the posting statements: a statement's CTEs read the snapshot taken
// when it started, so a redemption that waited for a participant's row lock would not see lots a
// concurrent credit committed meanwhile. A plpgsql function's statements each take a fresh
// snapshot (READ COMMITTED), and the trigger runs after the posting statement's participant UPDATE,
// under that row lock: every writer of a participant's lots holds it, so they never interleave.
//
// Expiry entries (source `expiry`) are skipped: the expiry job names the lot it empties itself
// (expire.sql.ts). A change to this text needs a migration that replaces the function.

/** The trigger function and the trigger, as the migration and the entity declare them. */
export const LOTS_TRIGGER_DDL = `create or replace function "ledger_entries_lots_fn"() returns trigger as $$
declare
  d record;
  given bigint;
  taken bigint;
begin
  -- Every credit that is not a reversal opens one lot with the expiry written on its entry.
  insert into point_lots (workspace_id, mode, participant_id, entry_id, points, remaining, expires_at)
  select n.workspace_id, n.mode, n.participant_id, n.id, n.points, n.points, n.expires_at
    from new_rows n where n.points > 0 and n.reverses_entry_id is null order by n.id;

  for d in select n.id, n.workspace_id, n.mode, n.participant_id, n.points, n.reverses_entry_id, n.expires_at
             from new_rows n
            where n.source <> 'expiry' and (n.points < 0 or n.reverses_entry_id is not null)
            order by n.id loop
    if d.points > 0 then
      -- A reversed debit gives back exactly the lots it consumed, one lot per expiry instant.
      insert into point_lots (workspace_id, mode, participant_id, entry_id, points, remaining, expires_at)
      select d.workspace_id, d.mode, d.participant_id, d.id, sum(a.points), sum(a.points), l.expires_at
        from lot_allocations a join point_lots l on l.id = a.lot_id
       where a.entry_id = d.reverses_entry_id
       group by l.expires_at;
      select coalesce(sum(l.points), 0) into given from point_lots l where l.entry_id = d.id;
      -- A debit posted before lots existed recorded none: what it took comes back never-expiring.
      if given < d.points then
        insert into point_lots (workspace_id, mode, participant_id, entry_id, points, remaining, expires_at)
        values (d.workspace_id, d.mode, d.participant_id, d.id, d.points - given, d.points - given, d.expires_at);
      elsif given > d.points then
        raise exception 'ledger: reversal % gives back % points but its debit took %', d.id, d.points, given;
      end if;
    else
      -- A debit takes from open lots soonest-expiring first (never-expiring last), oldest first on
      -- ties; a credit's reversal takes from that credit's own lots first.
      with open as (
        select l.id, l.remaining,
               sum(l.remaining) over (
                 order by coalesce(l.entry_id = d.reverses_entry_id, false) desc,
                          l.expires_at asc nulls last, l.id
               ) as upto
          from point_lots l
         where l.participant_id = d.participant_id and l.remaining > 0
      ), take as (
        select o.id, least(o.remaining, -d.points - (o.upto - o.remaining)) as points
          from open o where o.upto - o.remaining < -d.points
      ), moved as (
        update point_lots l set remaining = l.remaining - t.points from take t where l.id = t.id
        returning l.id, t.points
      )
      insert into lot_allocations (entry_id, lot_id, points) select d.id, m.id, m.points from moved m;
      select coalesce(sum(a.points), 0) into taken from lot_allocations a where a.entry_id = d.id;
      if taken <> -d.points then
        raise exception 'ledger: debit % of % points found only % in open lots', d.id, -d.points, taken;
      end if;
    end if;
  end loop;
  return null;
end $$ language plpgsql;
create trigger "ledger_entries_lots" after insert on "ledger_entries" referencing new table as new_rows for each statement execute function "ledger_entries_lots_fn"();`;

/** The entity's declaration of the trigger (MikroORM creates it, does not diff it; see live/triggers.ts). */
export const LOTS_TRIGGER = {
  name: 'ledger_entries_lots',
  timing: 'after' as const,
  events: ['insert' as const],
  forEach: 'statement' as const,
  expression: LOTS_TRIGGER_DDL,
};
