-- Issue 24: the child's home login name, the home-login lockout kind, and the shared client-log window.

-- loginName: eight digits, the first not 0 (docs/identity.md, "Home login"). Students only, every student has one.
alter table users add column login_name text;
alter table users add constraint users_login_name_format check (login_name ~ '^[1-9][0-9]{7}$');
alter table users add constraint users_login_name_student_only
  check ((primary_persona = 'STUDENT') = (login_name is not null)) not valid;
create unique index users_login_name_key on users (login_name);

-- One random unused name, drawn until free; a student inserted without one (every creation path, fixtures too)
-- gets it here, so no path can forget it.
create function qiraa_new_login_name() returns text language plpgsql volatile as $$
declare
  candidate text;
begin
  loop
    candidate := (10000000 + floor(random() * 90000000))::bigint::text;
    exit when not exists (select 1 from users where login_name = candidate);
  end loop;
  return candidate;
end $$;

create function users_student_login_name() returns trigger language plpgsql as $$
begin
  if new.primary_persona = 'STUDENT' and new.login_name is null then
    new.login_name := qiraa_new_login_name();
  end if;
  return new;
end $$;

create trigger users_student_login_name before insert on users
  for each row execute function users_student_login_name();

-- Existing students, one at a time so each draw sees the names given before it.
do $$
declare
  r record;
begin
  for r in select id from users where primary_persona = 'STUDENT' and login_name is null order by id loop
    update users set login_name = qiraa_new_login_name() where id = r.id;
  end loop;
end $$;
alter table users validate constraint users_login_name_student_only;

alter table auth_attempts drop constraint auth_attempts_kind_check;
alter table auth_attempts add constraint auth_attempts_kind_check
  check (kind in ('login_failure', 'quickcode_source', 'quickcode_class', 'home_login_failure', 'code_rotation'));

-- Request counters shared by every API process (the client-log limit; docs/api.md, Limits): one row per limit
-- and subject, its window opened by the first hit after the previous one ended.
create table rate_windows (
  kind          text not null,
  subject       text not null,
  window_start  timestamptz not null,
  hits          integer not null,
  primary key (kind, subject)
);
