-- Roster import (docs/roster-import.md): the student information system's ids kept on each row, scoped per
-- organization, and the reports of every import (dry run or applied).

alter table schools add column sourced_id text;
create unique index schools_sourced_id_idx on schools (organization_id, sourced_id) where sourced_id is not null;

alter table classes add column sourced_id text;
create unique index classes_sourced_id_idx on classes (organization_id, sourced_id) where sourced_id is not null;

alter table users add column sourced_id text;
create unique index users_sourced_id_idx on users (organization_id, sourced_id) where sourced_id is not null;

-- Imported adults sign in through the school's identity provider (OpenID Connect, matched by email), a passkey
-- or a handoff code until they set a password: an adult needs an email, no longer a password hash.
do $$
declare c record;
begin
  for c in
    select conname from pg_constraint
    where conrelid = 'users'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%password_hash IS NOT NULL%'
  loop
    execute format('alter table users drop constraint %I', c.conname);
  end loop;
end $$;
alter table users add constraint users_adult_email check (primary_persona = 'STUDENT' or email is not null);

create table roster_imports (
  id                  text primary key,
  organization_id     text not null references organizations (id),
  actor_user_id       bigint references users (id),
  format              text not null check (format in ('oneroster', 'simple')),
  dry_run             boolean not null,
  deactivate_missing  boolean not null,
  status              text not null check (status in ('dry_run', 'applied', 'partially_applied', 'not_applied')),
  report              jsonb not null,
  created_at          timestamptz not null default now()
);
create index roster_imports_org_idx on roster_imports (organization_id, created_at desc);
