/**
 * The statement triggers that announce committed changes on `svc_live` (see LiveHub). Declared on
 * the entities as raw DDL (`expression`), which MikroORM creates but does not diff, because its
 * trigger model has no `REFERENCING NEW TABLE`; the migration that created them holds the same SQL.
 */
export const liveTrigger = (table: string, tag: 'l' | 'b' | 't' | 's') => {
  const name = `${table}_live`;
  return {
    name,
    timing: 'after' as const,
    events: ['insert' as const],
    forEach: 'statement' as const,
    expression: `create or replace function "${name}_fn"() returns trigger as $$
declare ids text;
begin
  select string_agg(distinct n.participant_id::text, ',') into ids from new_rows n
   where exists (select 1 from live_watches w where w.participant_id = n.participant_id);
  if ids is null then return null; end if;
  if length(ids) > 7900 then ids := '*'; end if;
  perform pg_notify('svc_live', '${tag}:' || ids);
  return null;
end $$ language plpgsql;
create trigger "${name}" after insert on "${table}" referencing new table as new_rows for each statement execute function "${name}_fn"();`,
  };
};
