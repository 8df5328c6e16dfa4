-- Digital diagnostic sittings (docs/assessment-sittings.md). Ordinary tables: the measure cut tables, versioned
-- data per organization with a global default. Read model (projection `assessment_sittings`, rebuildable): one
-- row per sitting with its plan, pins, answers and end.

-- One version of a cut table: global (organization_id null) or an organization's own. A version is never
-- changed once a sitting pinned it; a new one is added instead (the newest of a scope is in force).
create table asm_measure_cut_versions (
  version          text primary key check (version ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$'),
  organization_id  text references organizations (id),
  published_at     timestamptz not null default now(),
  created_by       bigint
);
create index asm_measure_cut_versions_scope_idx on asm_measure_cut_versions (organization_id, published_at desc);

-- The lowest raw score of levels 2, 3 and 4 of one measure in one grade and window. provisional: still being
-- normed (results read with it are provisional).
create table asm_measure_cuts (
  version          text not null references asm_measure_cut_versions (version),
  measure_code     text not null,
  grade            smallint not null check (grade between 1 and 4),
  evidence_window  text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  min_raw_level2   smallint not null check (min_raw_level2 >= 0),
  min_raw_level3   smallint not null,
  min_raw_level4   smallint not null,
  provisional      boolean not null default false,
  primary key (version, measure_code, grade, evidence_window),
  check (min_raw_level2 <= min_raw_level3 and min_raw_level3 <= min_raw_level4)
);

-- The global default (provisional where the catalog's scoring status is provisional): for a measure of n
-- questions, level 2 from about half, level 3 from n - 1, level 4 from n (all correct).
insert into asm_measure_cut_versions (version, organization_id, published_at) values ('global-2026.1', null, '2026-01-01T00:00:00Z');
insert into asm_measure_cuts (version, measure_code, grade, evidence_window, min_raw_level2, min_raw_level3,
                              min_raw_level4, provisional)
select 'global-2026.1', m.measure_code, g.grade, w.code,
       case when m.form_item_count >= 4 then 2 else 1 end,
       greatest(m.form_item_count - 1, 1), m.form_item_count,
       m.scoring_status = 'provisional'
from content_measures m
cross join content_grades g
cross join content_windows w
where m.mode = 'digital' and g.grade between m.grade_min and m.grade_max;

-- Every digital sitting: its header, mode, the whole SittingStarted (plan in served order with the server-side
-- pattern and sub-skill of each question, sections, pins), answers (keyed by plan position) and how it ended.
create table asm_sittings (
  attempt_id       uuid primary key,
  organization_id  text not null,
  class_id         text not null,
  student_id       bigint not null,
  academic_year    text not null,
  evidence_window  text not null,
  mode             text not null check (mode in ('window', 're_diagnostic')),
  started          jsonb not null,
  answers          jsonb not null default '{}',
  status           text not null check (status in ('in_progress', 'done', 'stopped')),
  started_at       timestamptz not null,
  ended_at         timestamptz,
  end_reason       text,
  void_id          bigint,
  voided_at        timestamptz
);
create index asm_sittings_student_idx on asm_sittings (student_id, academic_year, evidence_window, started_at desc);
