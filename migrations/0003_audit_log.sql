-- Read model of the audit streams (audit-*), served by GET /api/admin/audit-log. Rebuildable.
create table audit_log (
  id                text primary key,
  event_id          uuid not null unique,
  event_type        text not null,
  organization_id   text,
  actor_user_id     bigint,
  target_student_id bigint,
  target_class_id   text,
  detail            jsonb not null default '{}'::jsonb,
  occurred_at       timestamptz not null,
  recorded_at       timestamptz not null
);
create index audit_log_org_time_idx on audit_log (organization_id, occurred_at desc, id);
create index audit_log_type_idx on audit_log (event_type, occurred_at desc);
