-- Notifications (packages/notifications, docs/notifications.md): the kind catalog and the recipient inbox.
-- The inbox is the read model of the `notification-<recipientUserId>` streams (NotificationDispatched,
-- NotificationRead, NotificationDismissed, AllNotificationsRead), kept current inline by the commands.

-- Kind catalog. Templates use `{{var}}` tokens filled from the kind's payload. A template edit is forward-only
-- (bump template_version in a new migration) and never re-renders stored notifications.
-- retention_days: 30 for the two training kinds, 90 for parent_tsp_activation (spec), 90 for every other kind
-- (our default, until the product decides). The value is stored; no purge runs yet (spec: deferred).
-- Parent-facing templates hold no digit, percent sign or internal token (parent language-safety tier).
create table notification_kinds (
  kind                   text primary key check (kind ~ '^[a-z][a-z0-9]*(_[a-z0-9]+)*$'),
  arabic_title_template  text not null check (arabic_title_template <> ''),
  arabic_body_template   text not null check (arabic_body_template <> ''),
  default_severity       text not null check (default_severity in ('info', 'action_required', 'urgent')),
  default_persona        text not null check (default_persona in ('TEACHER', 'PARENT', 'ADMIN', 'PRINCIPAL', 'MANAGER')),
  retention_days         integer not null check (retention_days > 0),
  active                 boolean not null default true,
  template_version       integer not null default 1 check (template_version >= 1),
  created_at             timestamptz not null default now()
);

insert into notification_kinds
  (kind, arabic_title_template, arabic_body_template, default_severity, default_persona, retention_days)
values
  ('q5_24h_ack',
   'متابعة اليوم مع {{studentName}}',
   'يسعدنا أن تطّلع على الملاحظة الجديدة حول {{studentName}} وتؤكد متابعتها خلال يوم دراسي.',
   'action_required', 'TEACHER', 90),
  ('skill_alert_assigned',
   'فرصة دعم في مهارة {{skillLabelAr}}',
   'أُسندت إليك متابعة {{studentName}} في مهارة {{skillLabelAr}}؛ خطوة دعم قصيرة تساعده على مواصلة النمو.',
   'action_required', 'TEACHER', 90),
  ('student_alert_assigned',
   'متابعة عاجلة مع {{studentName}}',
   'أُسندت إليك متابعة {{studentName}}؛ نقترح الاطلاع عليها اليوم لمساندته في رحلته القرائية.',
   'urgent', 'TEACHER', 90),
  ('benchmark_profile_swap',
   'تحديث ملف القراءة لـ {{studentName}}',
   'تم تحديث ملف القراءة المرجعي لـ {{studentName}} بناءً على أحدث الأدلة، ويمكنك مراجعته الآن.',
   'info', 'ADMIN', 90),
  ('dismissal_expiry',
   'موعد مراجعة متابعة {{studentName}}',
   'اقترب موعد مراجعة قرار إغلاق متابعة {{studentName}}؛ راجِعه لتقرر الخطوة التالية.',
   'action_required', 'TEACHER', 90),
  ('plan_modification_suggestion',
   'اقتراح لتطوير خطة {{studentName}}',
   'لدينا اقتراح لتعديل خطة {{studentName}} في مهارة {{skillLabelAr}} بما يدعم تقدمه.',
   'action_required', 'TEACHER', 90),
  ('cbm_alert_lifecycle',
   'تحديث متابعة القياس لـ {{studentName}}',
   'تغيّرت حالة متابعة القياس الخاصة بـ {{studentName}}؛ اطّلع على التفاصيل لتخطيط الخطوة التالية.',
   'action_required', 'TEACHER', 90),
  ('parent_tsp_activation',
   'بدأت خطة دعم القراءة لـ {{studentName}}',
   'يسعدنا إخباركم بأن فريق المدرسة بدأ خطة دعم القراءة مع {{studentName}}، وسنشارككم خطواتها أولًا بأول.',
   'info', 'PARENT', 90),
  ('lms_connection_revoked',
   'انقطع الربط مع منصة التعلم',
   'أُلغي إذن الربط مع منصة التعلم لمؤسستك؛ أعِد الربط لمواصلة مزامنة الصفوف.',
   'urgent', 'ADMIN', 90),
  ('training_no_progress',
   'فرصة لمراجعة تدريب {{studentName}}',
   'يواصل {{studentName}} التدريب على {{skillLabelAr}} في مستوى {{levelNameAr}} منذ مدة؛ قد تساعده خطوة دعم جديدة على الانتقال.',
   'action_required', 'TEACHER', 30),
  ('training_support_review_suggested',
   'اقتراح مراجعة خطوات الدعم لـ {{studentName}}',
   'نقترح مراجعة خطوات الدعم في {{skillLabelAr}} (مستوى {{levelNameAr}}) لمساندة {{studentName}} في مواصلة النمو.',
   'action_required', 'TEACHER', 30);

create function notification_kinds_refuse_delete() returns trigger language plpgsql as $$
begin
  raise exception 'notification kinds are never deleted (set active = false)' using errcode = 'restrict_violation';
end $$;
create trigger notification_kinds_no_delete before delete on notification_kinds
  for each row execute function notification_kinds_refuse_delete();

-- The inbox read model (projection `notifications_inbox`; no foreign keys so a rebuild can swap it).
create table notifications (
  id                  uuid primary key,
  recipient_user_id   bigint not null,
  kind                text not null,
  payload             jsonb not null,
  organization_id     text,
  rendered_title_ar   text not null,
  rendered_body_ar    text not null,
  severity            text not null check (severity in ('info', 'action_required', 'urgent')),
  source_entity_type  text,
  source_entity_id    text,
  created_at          timestamptz not null,
  delivery_state      text not null default 'delivered_in_app'
                        check (delivery_state in ('delivered_in_app', 'read', 'dismissed')),
  read_at             timestamptz,
  dismissed_at        timestamptz,
  check ((source_entity_type is null) = (source_entity_id is null)),
  check (delivery_state <> 'read' or read_at is not null),
  check (delivery_state <> 'dismissed' or dismissed_at is not null)
);
-- The inbox listing: urgent first, then newest (id breaks ties for the cursor).
create index notifications_inbox_idx on notifications
  (recipient_user_id, (severity = 'urgent') desc, created_at desc, id desc) where delivery_state <> 'dismissed';
create index notifications_unread_idx on notifications (recipient_user_id) where delivery_state = 'delivered_in_app';

-- Write-once: recipient, kind, payload, organization, rendered strings and createdAt never change, and no row
-- is deleted. Only delivery_state, read_at and dismissed_at move (dismissed is terminal).
create function notifications_guard() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'notifications are never deleted' using errcode = 'restrict_violation';
  end if;
  if new.id is distinct from old.id
     or new.recipient_user_id is distinct from old.recipient_user_id
     or new.kind is distinct from old.kind
     or new.payload is distinct from old.payload
     or new.organization_id is distinct from old.organization_id
     or new.rendered_title_ar is distinct from old.rendered_title_ar
     or new.rendered_body_ar is distinct from old.rendered_body_ar
     or new.severity is distinct from old.severity
     or new.source_entity_type is distinct from old.source_entity_type
     or new.source_entity_id is distinct from old.source_entity_id
     or new.created_at is distinct from old.created_at then
    raise exception 'notification % : write-once column changed', old.id using errcode = 'restrict_violation';
  end if;
  if old.delivery_state = 'dismissed' and new.delivery_state <> 'dismissed' then
    raise exception 'notification % : dismissed is terminal', old.id using errcode = 'restrict_violation';
  end if;
  return new;
end $$;
create trigger notifications_write_once before update or delete on notifications
  for each row execute function notifications_guard();
