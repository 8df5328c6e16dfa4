-- Sessions and session blueprints (docs/sessions.md). State tables, written by the sessions commands only;
-- every write of a session also appends its transition to ses_session_log (append-only).

-- One import of session blueprints (JSON batch). organization_id null: global (written by the super-admin).
create table ses_blueprint_batches (
  id              text primary key,
  organization_id text references organizations (id),
  status          text not null check (status in ('pending_review', 'operational')),
  created_by      bigint,
  created_at      timestamptz not null default now(),
  approved_by     bigint,
  approved_at     timestamptz,
  -- per row: externalId, blueprintId, version, unchanged, rejectReason (the report as imported)
  rows            jsonb not null
);
create index ses_blueprint_batches_scope on ses_blueprint_batches (organization_id, created_at desc, id desc);

-- One version of a blueprint. Versions of one external id share (scope, external_id); a re-import equal to
-- the newest version (same content_hash) stores nothing.
create table ses_blueprints (
  id              text primary key,
  organization_id text references organizations (id),
  external_id     text not null,
  version         integer not null check (version >= 1),
  batch_id        text not null references ses_blueprint_batches (id),
  status          text not null check (status in ('pending_review', 'operational', 'retired')),
  grade           smallint not null check (grade between 1 and 4),
  theme           text not null,
  sub_skill_ids   text[] not null check (cardinality(sub_skill_ids) between 1 and 5),
  target_minutes  smallint not null check (target_minutes between 5 and 60),
  title_ar        text not null,
  intro_ar        text not null,
  tags            text[] not null default '{}',
  content_hash    text not null,
  created_at      timestamptz not null default now(),
  approved_at     timestamptz
);
create unique index ses_blueprints_version on ses_blueprints (coalesce(organization_id, ''), external_id, version);
create index ses_blueprints_operational on ses_blueprints (grade, created_at desc, id desc) where status = 'operational';

-- A session: a teacher's draft from a blueprint version, then its per-student slots.
create table ses_sessions (
  id                 text primary key,
  organization_id    text not null references organizations (id),
  school_id          text not null,
  class_id           text not null references classes (id),
  teacher_user_id    bigint not null,
  blueprint_id       text not null references ses_blueprints (id),
  blueprint_version  integer not null,
  -- 'filter_failed' is reserved by the spec and never written (a failed PDF batch leaves the session previewed)
  status             text not null check (status in ('draft', 'previewed', 'delivered', 'cancelled', 'filter_failed')),
  theme              text not null,
  sub_skill_ids      text[] not null check (cardinality(sub_skill_ids) between 1 and 5),
  delivery_mode      text check (delivery_mode in ('online', 'printable', 'mixed')),
  delivered_by       text check (delivered_by in ('distribute_online', 'generate_pdfs', 'deliver_mixed')),
  -- the pin set taken at accept: item-bank pin, rule-set versions, catalog version (docs/sessions.md, Pins)
  pins               jsonb,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  accepted_at        timestamptz,
  delivered_at       timestamptz,
  cancelled_at       timestamptz
);
create index ses_sessions_class on ses_sessions (class_id, created_at desc, id desc);

-- One row per student of the class at accept: included (a slot) or held out (listed as not included).
create table ses_session_students (
  session_id       text not null references ses_sessions (id),
  student_id       bigint not null,
  -- the opaque id the QR link names (no student id in a printed link)
  slot_id          text not null unique,
  included         boolean not null,
  held_out_reason  text check (held_out_reason in ('do_not_decide_yet')),
  override_code    text,
  medium           text not null check (medium in ('online', 'printable')),
  item_ids         text[] not null,
  online_queued_at timestamptz,
  pdf_sha256       text,
  primary key (session_id, student_id),
  check (included or held_out_reason is not null)
);

-- Session creations per teacher: the from-blueprint rate window, shared by every API process.
create table ses_session_creations (
  teacher_user_id bigint not null,
  at              timestamptz not null default now()
);
create index ses_session_creations_window on ses_session_creations (teacher_user_id, at);

-- Append-only log of each session transition (who, what, when).
create table ses_session_log (
  id          bigserial primary key,
  session_id  text not null references ses_sessions (id),
  action      text not null,
  actor_id    bigint,
  detail      jsonb not null default '{}',
  at          timestamptz not null default now()
);
create index ses_session_log_session on ses_session_log (session_id, id);
