-- Profiles and bundle recommendations (packages/decisions/src/profiles, docs/decisions-profiles.md), and the
-- support bundles they recommend, as content catalog data (packages/content owns the catalog; release 2026.2).

insert into content_catalog_releases (version, note) values ('2026.2', 'support bundles with their steps');

-- A support bundle: a short sequence of steps for one profile code (PR2-nn of the decision rule set) anchored
-- on one macro-domain. The decision engine's rule BRR-01 picks the bundle whose profile code and anchor
-- domain match the child's profile.
create table content_support_bundles (
  id                     text primary key check (id ~ '^bnd_[a-z][a-z0-9_]*$'),
  label_ar               text not null,
  profile_code           text not null check (profile_code ~ '^PR2-[0-9]{2}$'),
  anchor_macro_domain_id text not null references content_macro_domains (id),
  grade_min              smallint not null check (grade_min between 1 and 4),
  grade_max              smallint not null check (grade_max between 1 and 4),
  ordinal                smallint not null unique,
  catalog_version        text not null references content_catalog_releases (version),
  check (grade_min <= grade_max),
  unique (profile_code, anchor_macro_domain_id)
);
create table content_support_bundle_steps (
  bundle_id       text not null references content_support_bundles (id),
  ordinal         smallint not null check (ordinal between 1 and 12),
  step_code       text not null check (step_code ~ '^[a-z][a-z0-9_]*$'),
  label_ar        text not null,
  skill_id        text not null references content_skills (id),
  catalog_version text not null references content_catalog_releases (version),
  primary key (bundle_id, ordinal),
  unique (bundle_id, step_code)
);

insert into content_support_bundles
  (id, label_ar, profile_code, anchor_macro_domain_id, grade_min, grade_max, ordinal, catalog_version)
values
  ('bnd_enrich_words', 'إثراء الكلمات', 'PR2-01', 'decoding', 1, 4, 1, '2026.2'),
  ('bnd_enrich_expression', 'القراءة المعبّرة', 'PR2-01', 'fluency', 1, 4, 2, '2026.2'),
  ('bnd_decoding_foundations', 'أساسيات فك الرموز', 'PR2-02', 'decoding', 1, 4, 3, '2026.2'),
  ('bnd_fluency_building', 'بناء الطلاقة', 'PR2-02', 'fluency', 1, 4, 4, '2026.2'),
  ('bnd_meaning_making', 'بناء المعنى', 'PR2-03', 'comprehension', 1, 4, 5, '2026.2'),
  ('bnd_words_and_meaning', 'الكلمة والمعنى', 'PR2-04', 'decoding', 1, 4, 6, '2026.2'),
  ('bnd_fluency_and_meaning', 'الطلاقة والمعنى', 'PR2-04', 'fluency', 1, 4, 7, '2026.2');

insert into content_support_bundle_steps (bundle_id, ordinal, step_code, label_ar, skill_id, catalog_version) values
  ('bnd_enrich_words', 1, 'new_word_families', 'عائلات كلمات جديدة', 'familiar_word_reading', '2026.2'),
  ('bnd_enrich_words', 2, 'longer_pseudowords', 'كلمات مصنوعة أطول', 'pseudoword_decoding', '2026.2'),
  ('bnd_enrich_words', 3, 'word_to_sentence', 'من الكلمة إلى الجملة', 'oral_text_reading', '2026.2'),
  ('bnd_enrich_expression', 1, 'phrase_reading', 'القراءة بالعبارات', 'oral_text_reading', '2026.2'),
  ('bnd_enrich_expression', 2, 'expressive_reading', 'القراءة المعبّرة', 'oral_text_reading', '2026.2'),
  ('bnd_enrich_expression', 3, 'retell_aloud', 'إعادة الحكاية بصوت مسموع', 'literal_comprehension', '2026.2'),
  ('bnd_decoding_foundations', 1, 'letter_sound_review', 'مراجعة أصوات الحروف', 'letter_sounds', '2026.2'),
  ('bnd_decoding_foundations', 2, 'syllable_blending', 'دمج المقاطع', 'syllable_blending', '2026.2'),
  ('bnd_decoding_foundations', 3, 'decodable_words', 'قراءة كلمات قابلة للتهجئة', 'pseudoword_decoding', '2026.2'),
  ('bnd_decoding_foundations', 4, 'common_words', 'الكلمات الشائعة', 'familiar_word_reading', '2026.2'),
  ('bnd_fluency_building', 1, 'modelled_reading', 'القراءة النموذجية', 'oral_text_reading', '2026.2'),
  ('bnd_fluency_building', 2, 'repeated_reading', 'القراءة المتكررة', 'oral_text_reading', '2026.2'),
  ('bnd_fluency_building', 3, 'timed_passage', 'قراءة نص بزمن', 'oral_text_reading', '2026.2'),
  ('bnd_meaning_making', 1, 'explicit_details', 'المعلومات الصريحة', 'literal_comprehension', '2026.2'),
  ('bnd_meaning_making', 2, 'event_order', 'ترتيب الأحداث', 'literal_comprehension', '2026.2'),
  ('bnd_meaning_making', 3, 'main_idea', 'الفكرة الرئيسة', 'inferential_comprehension', '2026.2'),
  ('bnd_words_and_meaning', 1, 'letter_sound_review', 'مراجعة أصوات الحروف', 'letter_sounds', '2026.2'),
  ('bnd_words_and_meaning', 2, 'decodable_words', 'قراءة كلمات قابلة للتهجئة', 'pseudoword_decoding', '2026.2'),
  ('bnd_words_and_meaning', 3, 'listen_and_answer', 'الاستماع والإجابة', 'literal_comprehension', '2026.2'),
  ('bnd_fluency_and_meaning', 1, 'repeated_reading', 'القراءة المتكررة', 'oral_text_reading', '2026.2'),
  ('bnd_fluency_and_meaning', 2, 'read_and_retell', 'اقرأ وأعد الحكاية', 'literal_comprehension', '2026.2'),
  ('bnd_fluency_and_meaning', 3, 'main_idea', 'الفكرة الرئيسة', 'inferential_comprehension', '2026.2');

-- The latest profile decision per student, academic year and window (ProfileResolved; projection
-- `decisions_profiles`, rebuildable).
create table dec_profiles (
  student_id         bigint not null,
  academic_year      text not null,
  evidence_window    text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  profile_code       text not null check (profile_code in ('PR2-00', 'PR2-01', 'PR2-02', 'PR2-03', 'PR2-04')),
  profile_name       text not null,
  do_not_decide_yet  boolean not null,
  groups             jsonb not null,
  domains            jsonb not null,
  missing_domains    text[] not null,
  rule_set_version   text not null,
  skill_status_decision_ids uuid[] not null,
  profile_decision_id uuid not null,
  decided_at         timestamptz not null,
  stream_version     bigint not null,
  primary key (student_id, academic_year, evidence_window),
  check ((profile_code = 'PR2-00') = do_not_decide_yet)
);

-- The latest bundle recommendation per student, academic year and window (BundleRecommended, BundleBlocked).
create table dec_recommendations (
  student_id          bigint not null,
  academic_year       text not null,
  evidence_window     text not null check (evidence_window in ('BOY', 'MOY', 'EOY')),
  outcome             text not null check (outcome in ('recommended', 'blocked_insufficient_evidence', 'no_catalog_bundle')),
  rule_id             text not null,
  profile_code        text not null,
  bundle_id           text,
  anchor_skill_group  text,
  anchor_skill_id     text,
  scaffold_tier       text check (scaffold_tier in ('Level_1', 'Level_2', 'Level_3')),
  sufficient_data     boolean not null,
  next_data_action    jsonb,
  next_data_steps     jsonb not null,
  rule_set_version    text not null,
  recommendation_id   uuid not null,
  profile_decision_id uuid not null,
  decided_at          timestamptz not null,
  stream_version      bigint not null,
  primary key (student_id, academic_year, evidence_window),
  check ((outcome = 'recommended') = (bundle_id is not null)),
  check ((outcome = 'blocked_insufficient_evidence') = (not sufficient_data))
);

-- The profile notifier's ledger: one row per decision event, target (a class id, or `admins`) and kind
-- dispatched, so a re-delivered event (a replayed batch, a rebuild) notifies nobody twice.
create table dec_profile_dispatches (
  event_id      uuid not null,
  target        text not null,
  kind          text not null,
  outcome       text not null check (outcome in ('fanned_out', 'no_recipients', 'refused')),
  dispatched_at timestamptz not null default now(),
  primary key (event_id, target, kind)
);
