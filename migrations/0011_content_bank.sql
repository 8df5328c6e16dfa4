-- Content bank (packages/content, docs/content.md): import batches and their row reports, passages, item-bank
-- items, screening forms, scaffold prompts, word lists and their use, diagnostic blueprint cells and item-bank
-- pins. Ordinary tables. Scope: organization_id null is global content (written by the super-admin);
-- otherwise the organization's own. Versioned rows share (scope, external_id) and differ in version.

create table content_import_batches (
  id                 text primary key,
  organization_id    text references organizations (id),
  content_kind       text not null check (content_kind in ('item', 'content_bundle', 'screening_form', 'scaffold_prompt', 'word_list')),
  source_declared    jsonb,
  agreement_signoff  jsonb,
  status             text not null default 'pending_review' check (status in ('pending_review', 'approved')),
  decoded_bytes      integer not null check (decoded_bytes >= 0),
  row_count          integer not null default 0,
  accepted_count     integer not null default 0,
  rejected_count     integer not null default 0,
  unchanged_count    integer not null default 0,
  form_problems      jsonb,
  screening_form_id  text,
  form_rejected      boolean,
  created_by         bigint references users (id),  -- null: the operator CLI (qiraa content import)
  created_at         timestamptz not null default now(),
  approved_by        bigint references users (id),
  approved_at        timestamptz,
  approval           jsonb,
  check ((content_kind in ('item', 'content_bundle', 'screening_form')) = (source_declared is not null)),
  check ((content_kind in ('item', 'content_bundle', 'screening_form')) = (agreement_signoff is not null)),
  check ((content_kind = 'screening_form') = (form_rejected is not null))
);
create index content_import_batches_list_idx on content_import_batches (content_kind, created_at desc, id desc);

create table content_passages (
  id               text primary key,
  organization_id  text references organizations (id),
  external_id      text not null check (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  version          integer not null check (version >= 1),
  grade            smallint not null references content_grades (grade),
  title_ar         text not null,
  body_ar          text not null,
  word_count       integer not null check (word_count >= 1),
  status           text not null check (status in ('pending_review', 'operational', 'retired', 'declined')),
  content_hash     text not null,
  import_batch_id  text references content_import_batches (id),
  created_at       timestamptz not null default now(),
  unique nulls not distinct (organization_id, external_id, version)
);

create index content_passages_external_idx on content_passages (external_id);

create table content_screening_forms (
  id               text primary key,
  organization_id  text references organizations (id),
  external_id      text not null check (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  version          integer not null check (version >= 1),
  grade            smallint not null references content_grades (grade),
  window_code      text not null references content_windows (code),
  status           text not null check (status in ('draft', 'operational', 'retired')),
  content_hash     text not null,
  import_batch_id  text references content_import_batches (id),
  created_at       timestamptz not null default now(),
  approved_at      timestamptz,
  retired_at       timestamptz,
  unique nulls not distinct (organization_id, external_id, version)
);
create unique index content_screening_forms_one_live_idx
  on content_screening_forms (coalesce(organization_id, ''), external_id) where status = 'operational';
create index content_screening_forms_cell_idx on content_screening_forms (grade, window_code) where status = 'operational';

create table content_items (
  id                      text primary key,
  organization_id         text references organizations (id),
  external_id             text not null check (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  version                 integer not null check (version >= 1),
  -- bumped by every in-place change (position move, draft edit); ifMatch and ifVersion compare against it
  revision                integer not null default 1 check (revision >= 1),
  content_role            text not null check (content_role in ('screening', 'target_training', 'bridge_practice')),
  content_purpose         text not null check (content_purpose in ('diagnostic', 'training', 'bridge')),
  grade                   smallint not null references content_grades (grade),
  sub_skill_id            text not null references content_sub_skills (id),
  item_pattern            text not null references content_item_patterns (code),
  measure_code            text references content_measures (measure_code),
  screening_form_id       text references content_screening_forms (id),
  form_position           integer check (form_position >= 1),
  training_level          smallint references content_training_levels (number),
  bridge_target_skill_id  text references content_skills (id),
  passage_id              text references content_passages (id),
  stem_ar                 text not null,
  options                 jsonb not null check (jsonb_typeof(options) = 'array'),
  correct_option_key      text not null,
  hint_ar                 text,
  explanation_ar          text,
  status                  text not null check (status in ('pending_review', 'operational', 'retired', 'declined')),
  content_hash            text not null,
  source_declared         jsonb,
  import_batch_id         text references content_import_batches (id),
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now(),
  unique nulls not distinct (organization_id, external_id, version),
  check ((content_role = 'screening') = (screening_form_id is not null and form_position is not null and measure_code is not null)),
  check (content_role <> 'target_training' or training_level is not null),
  check ((content_role = 'bridge_practice') = (bridge_target_skill_id is not null)),
  check (content_purpose = case content_role when 'screening' then 'diagnostic'
                                             when 'target_training' then 'training' else 'bridge' end)
);
-- Not deferrable on purpose: a move parks an item at formPosition + 1000000 for its intermediate step.
create unique index content_items_form_position_idx on content_items (screening_form_id, measure_code, form_position)
  where screening_form_id is not null;
create index content_items_list_idx on content_items (content_role, status, grade);
-- Versions of one piece of content are found by external id (retire the earlier live one, newest version).
create index content_items_external_idx on content_items (external_id);

create table content_scaffold_prompts (
  id               text primary key,
  organization_id  text references organizations (id),
  external_id      text not null check (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  version          integer not null check (version >= 1),
  sub_skill_id     text not null references content_sub_skills (id),
  tier             smallint not null check (tier between 1 and 3),
  prompt_ar        text not null,
  status           text not null check (status in ('pending_review', 'operational', 'retired', 'declined')),
  content_hash     text not null,
  import_batch_id  text references content_import_batches (id),
  created_at       timestamptz not null default now(),
  unique nulls not distinct (organization_id, external_id, version)
);

create index content_scaffold_prompts_external_idx on content_scaffold_prompts (external_id);

create table content_import_rows (
  batch_id            text not null references content_import_batches (id),
  entity              text not null check (entity in ('passage', 'item', 'scaffold_prompt', 'word_list')),
  row_index           integer not null check (row_index >= 0),
  external_id         text,
  passage_id          text references content_passages (id),
  word_list_id        text,
  scaffold_prompt_id  text references content_scaffold_prompts (id),
  item_bank_id        text references content_items (id),
  reject_reason       text,
  unchanged           boolean not null default false,
  primary key (batch_id, entity, row_index)
);

create table content_word_lists (
  id                text primary key,
  external_id       text not null check (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  scope             text not null check (scope in ('global', 'organization', 'school')),
  organization_id   text references organizations (id),
  school_id         text references schools (id),
  version           integer not null check (version >= 1),
  grade             smallint not null references content_grades (grade),
  skill_id          text not null references content_skills (id),
  window_code       text references content_windows (code),
  words             text[] not null,
  timed             boolean not null default true,
  duration_seconds  integer check (duration_seconds between 10 and 600),
  words_per_row     smallint check (words_per_row between 1 and 10),
  reading_note_ar   text,
  status            text not null check (status in ('draft', 'operational', 'retired')),
  content_hash      text not null,
  source_version_id text references content_word_lists (id),
  import_batch_id   text references content_import_batches (id),
  created_by        bigint references users (id),
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  published_at      timestamptz,
  retired_at        timestamptz,
  unique nulls not distinct (organization_id, school_id, external_id, version),
  check ((scope = 'global') = (organization_id is null)),
  check ((scope = 'school') = (school_id is not null)),
  check (timed = (duration_seconds is not null))
);
create unique index content_word_lists_one_live_idx
  on content_word_lists (coalesce(organization_id, ''), coalesce(school_id, ''), external_id) where status = 'operational';
create index content_word_lists_cell_idx on content_word_lists (grade, skill_id) where status = 'operational';

alter table content_import_rows
  add constraint content_import_rows_word_list_fk foreign key (word_list_id) references content_word_lists (id);

-- One row per assessment that read a list (written by the assessment context through content's export).
create table content_word_list_uses (
  word_list_id   text not null references content_word_lists (id),
  assessment_ref text not null,
  used_at        timestamptz not null default now(),
  primary key (word_list_id, assessment_ref)
);

-- Diagnostic blueprint: per scope (global; organization; school) × grade × window, the ordered screen measures
-- or the legacy sub-skill list. kind 'not_screened' is an explicit empty cell; a missing row is 'unset'.
create table content_diagnostic_blueprint_cells (
  id                        bigint generated always as identity primary key,
  organization_id           text references organizations (id),
  school_id                 text references schools (id),
  grade                     smallint not null references content_grades (grade),
  window_code               text not null references content_windows (code),
  kind                      text not null check (kind in ('measures', 'skills', 'not_screened')),
  measures                  text[] not null default '{}',
  sub_skill_ids             text[] not null default '{}',
  acknowledged_provisional  boolean not null default false,
  revision                  integer not null default 1 check (revision >= 1),
  updated_by                bigint references users (id),
  updated_at                timestamptz not null default now(),
  unique nulls not distinct (organization_id, school_id, grade, window_code),
  check (school_id is null or organization_id is not null),
  check (kind <> 'measures' or cardinality(measures) > 0),
  check (kind <> 'skills' or cardinality(sub_skill_ids) > 0),
  check (kind <> 'not_screened' or (cardinality(measures) = 0 and cardinality(sub_skill_ids) = 0))
);

-- Item-bank pins: an immutable snapshot of every operational item (id, version, form, measure, position) taken
-- whenever the operational bank changes; a sitting pins one and is served from it (dry-run replays it).
create table content_item_bank_pins (
  id          text primary key,
  seq         bigint generated always as identity unique,
  taken_at    timestamptz not null default now(),
  cause       text not null check (cause in ('import_approved', 'positions_moved', 'item_edited', 'initial')),
  item_count  integer not null,
  entries_hash text not null unique,
  entries     jsonb not null check (jsonb_typeof(entries) = 'array')
);
