-- Decisions context (docs/decisions.md). Read model (projection `decisions_skill_status`, rebuildable): the
-- latest skill-status decision per student, academic year, window and sub-skill, from `decision-<studentId>`.

create table dec_skill_status (
  student_id        bigint not null,
  academic_year     text not null,
  evidence_window   text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  sub_skill_id      text not null,
  -- null exactly when do_not_decide_yet
  status            text check (status in ('beginning', 'developing', 'on_track', 'strong')),
  adr_rule_id       text,
  ssr_rule_id       text,
  do_not_decide_yet boolean not null,
  hold_reason       text check (hold_reason in ('insufficient_evidence', 'split_evidence', 'not_assessed')),
  rule_set_version  text not null,
  evidence          jsonb not null,
  evidence_event_ids uuid[] not null,
  void_event_ids    uuid[] not null,
  decision_id       uuid not null,
  supersedes_decision_id uuid,
  decided_at        timestamptz not null,
  -- The decision's position in the student's stream: a later decision of the key replaces an earlier one only.
  stream_version    bigint not null,
  primary key (student_id, academic_year, evidence_window, sub_skill_id),
  check ((status is null) = do_not_decide_yet)
);
