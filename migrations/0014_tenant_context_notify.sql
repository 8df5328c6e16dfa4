-- The API caches each caller's tenant context (packages/identity/src/auth/tenantContextCache.ts) and drops
-- entries when these triggers say what loadCaller reads has changed. Payload on channel
-- qiraa_tenant_context: 'u:<id>,<id>,...' (users), 'o:<id>,...' (organizations) or '*' (drop everything).
-- Statement-level with transition tables, so a bulk insert of 5,000 enrolments sends one notification;
-- a change that does not touch what loadCaller reads (preferences, email) sends none.

create function tenant_context_notify(p_kind text, p_ids text[]) returns void language plpgsql as $$
begin
  if cardinality(p_ids) = 0 then
    return;
  end if;
  -- A notification payload must stay under 8000 bytes: past a few hundred ids, drop every entry.
  if cardinality(p_ids) > 200 then
    perform pg_notify('qiraa_tenant_context', '*');
  else
    perform pg_notify('qiraa_tenant_context', p_kind || ':' || array_to_string(p_ids, ','));
  end if;
end;
$$;

create function tenant_context_users_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    perform tenant_context_notify('u', array(
      select distinct o.id::text from old_rows o join new_rows n on n.id = o.id
      where o.disabled_at is distinct from n.disabled_at
         or o.primary_persona is distinct from n.primary_persona
         or o.organization_id is distinct from n.organization_id
         or o.school_id is distinct from n.school_id));
  else
    perform tenant_context_notify('u', array(select distinct o.id::text from old_rows o));
  end if;
  return null;
end;
$$;

create trigger users_tenant_context_update after update on users
  referencing old table as old_rows new table as new_rows
  for each statement execute function tenant_context_users_changed();
create trigger users_tenant_context_delete after delete on users
  referencing old table as old_rows
  for each statement execute function tenant_context_users_changed();

create function tenant_context_organizations_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    perform tenant_context_notify('o', array(
      select distinct o.id from old_rows o join new_rows n on n.id = o.id
      where o.disabled_at is distinct from n.disabled_at));
  else
    perform tenant_context_notify('o', array(select distinct o.id from old_rows o));
  end if;
  return null;
end;
$$;

create trigger organizations_tenant_context_update after update on organizations
  referencing old table as old_rows new table as new_rows
  for each statement execute function tenant_context_organizations_changed();
create trigger organizations_tenant_context_delete after delete on organizations
  referencing old table as old_rows
  for each statement execute function tenant_context_organizations_changed();

-- An enrolment only matters to a student's context when it ends (no caller is cached for a student
-- without an active class), but every change is announced: cheaper to reason about than to filter.
create function tenant_context_class_students_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform tenant_context_notify('u', array(select distinct n.student_user_id::text from new_rows n));
  elsif tg_op = 'UPDATE' then
    perform tenant_context_notify('u', array(
      select distinct o.student_user_id::text from old_rows o
      union select distinct n.student_user_id::text from new_rows n));
  else
    perform tenant_context_notify('u', array(select distinct o.student_user_id::text from old_rows o));
  end if;
  return null;
end;
$$;

create trigger class_students_tenant_context_insert after insert on class_students
  referencing new table as new_rows
  for each statement execute function tenant_context_class_students_changed();
create trigger class_students_tenant_context_update after update on class_students
  referencing old table as old_rows new table as new_rows
  for each statement execute function tenant_context_class_students_changed();
create trigger class_students_tenant_context_delete after delete on class_students
  referencing old table as old_rows
  for each statement execute function tenant_context_class_students_changed();

-- TRUNCATE has no transition table: drop every entry.
create function tenant_context_truncated() returns trigger language plpgsql as $$
begin
  perform pg_notify('qiraa_tenant_context', '*');
  return null;
end;
$$;

create trigger users_tenant_context_truncate after truncate on users
  for each statement execute function tenant_context_truncated();
create trigger organizations_tenant_context_truncate after truncate on organizations
  for each statement execute function tenant_context_truncated();
create trigger class_students_tenant_context_truncate after truncate on class_students
  for each statement execute function tenant_context_truncated();
