-- Context flags of a student (docs/identity.md, "Context flags"): closed codes a teacher selects about the
-- circumstances around a child's learning, never free text (spec: "a blocked context flag or any free-text note
-- about a student is rejected"). The dictionary is data: a code on the blocked list (`blocked`) is refused with
-- 403 CONTEXT_FLAG_BLOCKED; blocking a code later refuses new selections of it and hides stored ones.

create table student_context_flag_codes (
  code      text primary key check (code ~ '^[a-z][a-z_]{1,47}$'),
  label_ar  text not null check (label_ar <> ''),
  -- On the blocked list: a label of the child or a private matter (health, family, behaviour, ability).
  blocked   boolean not null default false
);

insert into student_context_flag_codes (code, label_ar, blocked) values
  ('new_to_school', 'انضمّ إلى المدرسة هذا العام', false),
  ('extended_absence', 'غاب عن المدرسة مدة طويلة مؤخرًا', false),
  ('schooling_interrupted', 'انقطع عن الدراسة مدة ثم عاد', false),
  ('home_practice_limited', 'فرص التدريب في البيت محدودة', false),
  ('learning_disability_suspected', 'اشتباه في صعوبة تعلّم', true),
  ('behaviour_concern', 'ملاحظة على السلوك', true),
  ('family_circumstances', 'ظروف عائلية', true),
  ('medical_condition', 'حالة صحية', true),
  ('low_ability', 'قدرات منخفضة', true);

create table student_context_flags (
  student_id  bigint not null references users (id),
  code        text not null references student_context_flag_codes (code),
  set_by      bigint not null references users (id),
  set_at      timestamptz not null,
  primary key (student_id, code)
);
