-- The child's grammatical gender (packages/identity; docs/identity.md, docs/notifications.md) and the notification
-- templates that agree with it. Forward-only.

-- A closed code on the student only; null is unknown, and text addressed to or about the child then uses a
-- neutral wording. It picks Arabic word forms and nothing else.
alter table users add column gender text check (gender in ('female', 'male'));
alter table users add constraint users_gender_students_only check (gender is null or primary_persona = 'STUDENT');

-- Each kind renders in three forms. arabic_title_template / arabic_body_template are the neutral form (unknown
-- gender, and every kind that names no child); the _male / _female columns hold the gendered forms, null where
-- the neutral text already agrees with every child. Recipient-addressing wording is neutral too (the adult's
-- gender is not held). Template version 2 for every kind: stored notifications keep what they rendered.
alter table notification_kinds
  add column arabic_title_template_male text check (arabic_title_template_male <> ''),
  add column arabic_title_template_female text check (arabic_title_template_female <> ''),
  add column arabic_body_template_male text check (arabic_body_template_male <> ''),
  add column arabic_body_template_female text check (arabic_body_template_female <> '');

update notification_kinds k
set arabic_title_template = v.title,
    arabic_body_template = v.body,
    arabic_body_template_male = v.body_male,
    arabic_body_template_female = v.body_female,
    template_version = 2
from (values
  ('q5_24h_ack',
   'متابعة اليوم مع {{studentName}}',
   'وصلت ملاحظة جديدة حول {{studentName}}؛ نرجو الاطلاع عليها وتأكيد متابعتها خلال يوم دراسي.',
   null, null),
  ('skill_alert_assigned',
   'فرصة دعم في مهارة {{skillLabelAr}}',
   'أُسندت إليك متابعة {{studentName}} في مهارة {{skillLabelAr}}؛ خطوة دعم قصيرة تفتح الطريق لمواصلة النمو.',
   'أُسندت إليك متابعة {{studentName}} في مهارة {{skillLabelAr}}؛ خطوة دعم قصيرة تساعده على مواصلة النمو.',
   'أُسندت إليك متابعة {{studentName}} في مهارة {{skillLabelAr}}؛ خطوة دعم قصيرة تساعدها على مواصلة النمو.'),
  ('student_alert_assigned',
   'متابعة عاجلة مع {{studentName}}',
   'أُسندت إليك متابعة {{studentName}}؛ نقترح الاطلاع عليها اليوم، فالمساندة المبكرة تدعم رحلة القراءة.',
   'أُسندت إليك متابعة {{studentName}}؛ نقترح الاطلاع عليها اليوم لمساندته في رحلته القرائية.',
   'أُسندت إليك متابعة {{studentName}}؛ نقترح الاطلاع عليها اليوم لمساندتها في رحلتها القرائية.'),
  ('benchmark_profile_swap',
   'تحديث ملف القراءة لـ {{studentName}}',
   'تم تحديث ملف القراءة المرجعي لـ {{studentName}} بناءً على أحدث الأدلة، وهو متاح للمراجعة الآن.',
   null, null),
  ('dismissal_expiry',
   'موعد مراجعة متابعة {{studentName}}',
   'اقترب موعد مراجعة قرار إغلاق متابعة {{studentName}}؛ حان وقت مراجعته لتحديد الخطوة التالية.',
   null, null),
  ('plan_modification_suggestion',
   'اقتراح لتطوير خطة {{studentName}}',
   'لدينا اقتراح لتعديل خطة {{studentName}} في مهارة {{skillLabelAr}} بما يدعم مواصلة التقدم.',
   'لدينا اقتراح لتعديل خطة {{studentName}} في مهارة {{skillLabelAr}} بما يدعم تقدمه.',
   'لدينا اقتراح لتعديل خطة {{studentName}} في مهارة {{skillLabelAr}} بما يدعم تقدمها.'),
  ('cbm_alert_lifecycle',
   'تحديث متابعة القياس لـ {{studentName}}',
   'تغيّرت حالة متابعة القياس الخاصة بـ {{studentName}}؛ التفاصيل متاحة لتخطيط الخطوة التالية.',
   null, null),
  ('parent_tsp_activation',
   'بدأت خطة دعم القراءة لـ {{studentName}}',
   'يسعدنا إخباركم بأن فريق المدرسة بدأ خطة دعم القراءة مع طفلكم {{studentName}}، وسنشارككم خطواتها أولًا بأول.',
   'يسعدنا إخباركم بأن فريق المدرسة بدأ خطة دعم القراءة مع ابنكم {{studentName}}، وسنشارككم خطواتها أولًا بأول.',
   'يسعدنا إخباركم بأن فريق المدرسة بدأ خطة دعم القراءة مع ابنتكم {{studentName}}، وسنشارككم خطواتها أولًا بأول.'),
  ('lms_connection_revoked',
   'انقطع الربط مع منصة التعلم',
   'أُلغي إذن الربط مع منصة التعلم لمؤسستك؛ يلزم تجديد الربط لمواصلة مزامنة الصفوف.',
   null, null),
  ('training_no_progress',
   'فرصة لمراجعة تدريب {{studentName}}',
   'مضت مدة على تدريب {{studentName}} على {{skillLabelAr}} في مستوى {{levelNameAr}}؛ قد تفتح خطوة دعم جديدة الطريق إلى الانتقال.',
   'يواصل {{studentName}} التدريب على {{skillLabelAr}} في مستوى {{levelNameAr}} منذ مدة؛ قد تساعده خطوة دعم جديدة على الانتقال.',
   'تواصل {{studentName}} التدريب على {{skillLabelAr}} في مستوى {{levelNameAr}} منذ مدة؛ قد تساعدها خطوة دعم جديدة على الانتقال.'),
  ('training_support_review_suggested',
   'اقتراح مراجعة خطوات الدعم لـ {{studentName}}',
   'نقترح مراجعة خطوات الدعم في {{skillLabelAr}} (مستوى {{levelNameAr}}) لمساندة {{studentName}} في مواصلة النمو.',
   null, null)
) as v (kind, title, body, body_male, body_female)
where k.kind = v.kind;
