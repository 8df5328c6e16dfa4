-- Identity and tenancy: ordinary tables (not event-sourced). Tenants form a tree:
-- organization → school → class → student.
create table organizations (
  id              text primary key,
  name            text not null,
  slug            text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  country         text not null check (country ~ '^[A-Z]{2}$'),
  default_locale  text not null,
  time_zone       text not null default 'Asia/Amman',
  disabled_at     timestamptz,
  created_at      timestamptz not null default now()
);

create table schools (
  id              text primary key,
  organization_id text not null references organizations (id),
  name            text not null,
  country         text not null,
  created_at      timestamptz not null default now()
);
create index schools_org_idx on schools (organization_id);

create table users (
  id               bigint generated always as identity primary key,
  email            text unique check (email = lower(email)),
  password_hash    text,
  full_name_ar     text not null,
  primary_persona  text not null check (primary_persona in ('ADMIN', 'TEACHER', 'PARENT', 'PRINCIPAL', 'MANAGER', 'STUDENT')),
  organization_id  text references organizations (id),
  school_id        text references schools (id),
  preferences      jsonb not null default '{}'::jsonb,
  disabled_at      timestamptz,
  created_at       timestamptz not null default now(),
  -- Only the super-scope administrator has no organization; adults sign in with email and password.
  check (organization_id is not null or primary_persona = 'ADMIN'),
  check (primary_persona = 'STUDENT' or (email is not null and password_hash is not null)),
  check (primary_persona <> 'PRINCIPAL' or school_id is not null)
);
create index users_org_idx on users (organization_id);

create table classes (
  id                     text primary key,
  school_id              text not null references schools (id),
  organization_id        text not null references organizations (id),
  name                   text not null,
  grade                  integer not null check (grade between 1 and 4),
  academic_year          text not null check (academic_year ~ '^\d{4}-\d{4}$'),
  login_code             text not null unique,
  login_code_expires_at  timestamptz not null,
  created_at             timestamptz not null default now()
);
create index classes_school_idx on classes (school_id);
create index classes_org_idx on classes (organization_id);

-- Every code a class ever had: a renewed or lapsed one is recognised as such (410), not as unknown.
create table class_login_codes (
  code           text primary key,
  class_id       text not null references classes (id) on delete cascade,
  issued_at      timestamptz not null default now(),
  expires_at     timestamptz not null,
  superseded_at  timestamptz
);

create table class_teachers (
  class_id         text not null references classes (id) on delete cascade,
  teacher_user_id  bigint not null references users (id),
  created_at       timestamptz not null default now(),
  primary key (class_id, teacher_user_id)
);
create index class_teachers_teacher_idx on class_teachers (teacher_user_id);

create table class_students (
  class_id         text not null references classes (id),
  student_user_id  bigint not null references users (id),
  quick_code       text not null check (quick_code ~ '^(0[1-9]|[1-9][0-9])$'),
  active           boolean not null default true,
  created_at       timestamptz not null default now(),
  deactivated_at   timestamptz,
  primary key (class_id, student_user_id)
);
create unique index class_students_active_code_idx on class_students (class_id, quick_code) where active;
create index class_students_student_idx on class_students (student_user_id) where active;

create table parent_students (
  student_user_id  bigint not null references users (id),
  parent_user_id   bigint not null references users (id),
  created_at       timestamptz not null default now(),
  primary key (student_user_id, parent_user_id)
);
create index parent_students_parent_idx on parent_students (parent_user_id);

-- One family per login; each refresh rotates within it. Only hashes are stored.
create table refresh_families (
  id           uuid primary key,
  user_id      bigint not null references users (id),
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null,
  revoked_at   timestamptz,
  revoked_why  text check (revoked_why in ('logout', 'reuse_detected', 'user_disabled'))
);

create table refresh_tokens (
  token_hash   bytea primary key,
  family_id    uuid not null references refresh_families (id),
  status       text not null default 'active' check (status in ('active', 'rotated')),
  created_at   timestamptz not null default now(),
  rotated_at   timestamptz
);
create index refresh_tokens_family_idx on refresh_tokens (family_id);

-- Attempt logs for the limiters that must hold across API processes (login lockout, quick codes, code rotations).
create table auth_attempts (
  kind        text not null check (kind in ('login_failure', 'quickcode_source', 'quickcode_class', 'code_rotation')),
  subject     text not null,
  at          timestamptz not null default now()
);
create index auth_attempts_idx on auth_attempts (kind, subject, at);
