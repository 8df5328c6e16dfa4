-- Assessment context (docs/assessment.md). Ordinary tables: the screening-window calendar and its manual
-- openings. Read model (projection `assessment_attempts`, rebuildable): one row per attempt of any kind.

-- An organization's calendar for one academic year; absent rows mean the default calendar (windows/calendar.ts).
create table asm_window_calendars (
  organization_id text not null references organizations (id),
  academic_year   text not null check (academic_year ~ '^[0-9]{4}-[0-9]{4}$'),
  evidence_window text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  starts_on       date not null,
  ends_on         date not null check (ends_on >= starts_on),
  set_by          bigint,
  set_at          timestamptz not null default now(),
  primary key (organization_id, academic_year, evidence_window)
);

-- An administrator's manual opening (before the calendar's first day) or early close of a window.
create table asm_window_overrides (
  organization_id text not null references organizations (id),
  academic_year   text not null,
  evidence_window text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  opened_at       timestamptz,
  opened_by       bigint,
  closed_at       timestamptz,
  closed_by       bigint,
  primary key (organization_id, academic_year, evidence_window)
);

-- Void ids: the audit form is `void:<int>`.
create sequence asm_void_id_seq;

-- Every attempt (digital sitting, oral reading, word-list read): who, where, which window and cell, its state.
create table asm_attempts (
  attempt_id         uuid primary key,
  kind               text not null check (kind in ('digital_sitting', 'oral_text', 'oral_word_list')),
  cell               text not null check (cell in ('digital', 'oral_text', 'oral_familiar_words', 'oral_pseudowords')),
  organization_id    text not null,
  school_id          text not null,
  class_id           text not null,
  student_id         bigint not null,
  grade              int not null,
  academic_year      text not null,
  evidence_window    text not null,
  status             text not null check (status in ('in_progress', 'done', 'stopped')),
  started_at         timestamptz not null,
  started_by         bigint,
  ended_at           timestamptz,
  end_reason         text,
  -- What the teacher page shows of an ended attempt, derived by the command from raw counts with pinned cuts.
  result             jsonb,
  supersedes_void_id bigint,
  voided_at          timestamptz,
  void_id            bigint,
  void_reason        text,
  last_event_id      uuid not null
);
create index asm_attempts_student_idx on asm_attempts (student_id, academic_year, evidence_window, cell, started_at desc);
create index asm_attempts_class_idx on asm_attempts (class_id, academic_year, evidence_window);
