-- Voids reach the rewards (issue 22) and celebrations reach the child (issue 24); docs/gamification.md.

-- A mastery event reversed by a compensating entry (MasteryEventReversed on mastery-<id>): one per mastery event,
-- never deleted. Part of the gamification_ledger projection (version 3).
create table gam_mastery_reversals (
  mastery_event_id  uuid primary key,
  event_id          uuid not null unique,
  student_id        bigint not null,
  reason            text not null check (reason in ('evidence_voided')),
  cause_event_id    text not null,
  reversed_at       timestamptz not null
);
create index gam_mastery_reversals_student_idx on gam_mastery_reversals (student_id, reversed_at);
create trigger gam_mastery_reversals_append_only before update or delete on gam_mastery_reversals
  for each row execute function gam_refuse_change();

-- The XP a reversed mastery event earned goes back as one `void_reversal` row.
alter table gam_xp_ledger drop constraint gam_xp_ledger_kind_check;
alter table gam_xp_ledger add constraint gam_xp_ledger_kind_check
  check (kind in ('mastery_credit', 'badge_bonus', 'rescind_reversal', 'void_reversal'));

-- A badge rescinded by a void has no override code and no actor; it may have no XP to compensate.
alter table gam_badge_rescinds
  alter column override_code drop not null,
  alter column actor_user_id drop not null,
  alter column compensating_xp_transaction_id drop not null,
  add column reason text not null default 'override' check (reason in ('override', 'evidence_voided'));

-- The child's acknowledgement of a celebration. Not a projection: a rebuild of gam_* keeps it.
create table gam_celebration_acks (
  celebration_id   uuid primary key,
  student_id       bigint not null,
  acknowledged_at  timestamptz not null
);
