-- Online sessions in the child's practice queue (docs/sessions.md, "In the child's queue").
-- Both tables are the projection `sessions_practice` of the session streams `session-<sessionId>`
-- (SessionAnswerRecorded, SessionSlotCompleted): rebuildable, written only by the projection.

-- One answer per child and item (one try per session item): the unique key makes a repeated or parallel
-- submit of the same item a no-op.
create table ses_slot_answers (
  answer_id           uuid primary key,
  session_id          text not null,
  student_id          bigint not null,
  item_id             text not null,
  sub_skill_id        text not null,
  position            integer not null,
  selected_option_key text not null,
  correct             boolean not null,
  answered_at         timestamptz not null,
  unique (session_id, student_id, item_id)
);
create index ses_slot_answers_student on ses_slot_answers (student_id, session_id);

-- Per recipient: answered of total, and when the last item was answered.
create table ses_slot_progress (
  session_id   text not null,
  student_id   bigint not null,
  answered     integer not null,
  correct      integer not null,
  total        integer not null,
  completed_at timestamptz,
  primary key (session_id, student_id)
);

-- When the child opened the printed sheet's QR link (the first time); it also queues a printed slot online.
alter table ses_session_students add column link_opened_at timestamptz;
