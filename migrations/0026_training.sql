-- Training (packages/training, docs/training.md). Read models (projections `training_levels`,
-- `training_days`, `training_answers`; rebuildable from `traininglevel-<studentId>` and `trainingday-<dayId>`).

-- The current level of a student's skill in an academic year: the last TrainingLevelStarted / TrainingLevelMoved.
create table trn_levels (
  student_id           bigint not null,
  skill_id             text not null,
  academic_year        text not null,
  organization_id      text,
  measure_code         text,
  level                smallint not null check (level between 1 and 4),
  since                date not null,
  started_from         text not null check (started_from in ('screen', 'experience_type', 'backtrack')),
  started_at           timestamptz not null,
  last_move_id         uuid,
  last_move_direction  text check (last_move_direction in ('up', 'down', 'rebaseline')),
  last_move_at         timestamptz,
  last_move_from_level smallint,
  -- the screen seed the level started or was rebaselined from
  seed_id              uuid,
  -- the level's id: the start's or the last move's move id (answers at the level carry it)
  level_id             uuid not null,
  stream_version       bigint not null,
  primary key (student_id, academic_year, skill_id)
);

-- One row per training day (a trainingday-<dayId> stream), folded.
create table trn_days (
  day_id                 uuid primary key,
  student_id             bigint not null,
  organization_id        text,
  school_day             date not null,
  time_zone              text not null,
  academic_year          text not null,
  leveled                boolean not null,
  planned_exercises      smallint not null,
  questions_per_exercise smallint not null,
  -- [{ skillId, level, levelId, measureCode }] in exercise order of first appearance
  targets                jsonb not null,
  exit_planned           smallint not null,
  opened_at              timestamptz not null,
  ended_at               timestamptz,
  end_reason             text check (end_reason in ('done', 'cap', 'window_closed')),
  answered               integer not null default 0,
  counted                integer not null default 0,
  correct                integer not null default 0,
  exit_answered          smallint not null default 0,
  exit_correct           smallint not null default 0,
  stream_version         bigint not null
);
create index trn_days_student_idx on trn_days (student_id, school_day desc, opened_at desc);
-- at most one open day per student
create unique index trn_days_one_open_idx on trn_days (student_id) where ended_at is null;

-- One row per recorded answer (PracticeAnswerRecorded): what the level rules and the staff views read.
create table trn_answers (
  answer_id        uuid primary key,
  day_id           uuid not null,
  student_id       bigint not null,
  skill_id         text not null,
  level            smallint not null,
  level_id         uuid not null,
  item_id          text not null,
  role             text not null check (role in ('ordinary', 'retry', 'support', 'exit')),
  support_step_id  uuid,
  correct          boolean not null,
  hinted           boolean not null,
  counted          boolean not null,
  not_counted      text,
  response_ms      integer not null,
  school_day       date not null,
  answered_at      timestamptz not null,
  seq              bigint not null
);
create index trn_answers_level_idx on trn_answers (student_id, level_id, answered_at, seq) where counted;
create index trn_answers_day_idx on trn_answers (day_id, seq);
-- the day plan's "least practised item first" and the skill's last practised day
create index trn_answers_item_idx on trn_answers (student_id, item_id);
create index trn_answers_skill_idx on trn_answers (student_id, skill_id, school_day);

-- Fired support steps (SupportStepFired), append-only.
create table trn_support_steps (
  step_id         uuid primary key,
  day_id          uuid not null,
  student_id      bigint not null,
  rule_id         text not null,
  rule_version    text not null,
  target_skill_id text not null,
  level           smallint not null,
  support_skills  text[] not null,
  prompt_id       text,
  fired_at        timestamptz not null
);
create index trn_support_steps_day_idx on trn_support_steps (day_id, fired_at);
