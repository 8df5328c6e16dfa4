-- Training-level seeds (docs/decisions-training-seeds.md). Read model (projection `decisions_training_seeds`,
-- rebuildable): the standing seed event per student, academic year, window and skill from `decision-<studentId>`:
-- a `TrainingLevelSeeded` (seed_id and level set) or the `TrainingLevelSeedRetracted` after it (both null).

create table dec_training_seeds (
  student_id         bigint not null,
  academic_year      text not null,
  evidence_window    text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  skill_id           text not null,
  -- null exactly when the key's last seed was retracted
  seed_id            uuid,
  level              smallint check (level between 1 and 4),
  measure_code       text,
  session_id         uuid,
  provisional        boolean,
  rule_id            text not null,
  rule_set_version   text not null,
  evidence_event_ids uuid[] not null,
  retracted_seed_id  uuid,
  decided_at         timestamptz not null,
  -- The event's position in the student's stream: a later event of the key replaces an earlier one only.
  stream_version     bigint not null,
  primary key (student_id, academic_year, evidence_window, skill_id),
  check ((seed_id is null) = (level is null))
);
