-- Content catalogs (packages/content, docs/content.md): grades, windows, macro-domains, skills, sub-skills,
-- measures, item patterns, training levels and the word-list cells. Ordinary tables, seeded here.
-- Versioned: every row names the catalog release that introduced it; a later release is a new migration that
-- inserts a release row and adds or retires rows (retired_in), never an edit of these rows.

create table content_catalog_releases (
  version      text primary key,
  released_at  timestamptz not null default now(),
  note         text not null
);
insert into content_catalog_releases (version, note) values ('2026.1', 'first catalog: grades 1-4, BOY/MOY/EOY');

create table content_grades (
  grade           smallint primary key check (grade between 1 and 4),
  name_ar         text not null,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_grades (grade, name_ar, catalog_version) values
  (1, 'الصف الأول', '2026.1'), (2, 'الصف الثاني', '2026.1'),
  (3, 'الصف الثالث', '2026.1'), (4, 'الصف الرابع', '2026.1');

create table content_windows (
  code            text primary key check (code in ('BOY', 'MOY', 'EOY')),
  name_ar         text not null,
  ordinal         smallint not null unique,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_windows (code, name_ar, ordinal, catalog_version) values
  ('BOY', 'بداية العام', 1, '2026.1'), ('MOY', 'منتصف العام', 2, '2026.1'), ('EOY', 'نهاية العام', 3, '2026.1');

create table content_macro_domains (
  id              text primary key check (id ~ '^[a-z][a-z_]*$'),
  label_ar        text not null,
  ordinal         smallint not null unique,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_macro_domains (id, label_ar, ordinal, catalog_version) values
  ('phonological_awareness', 'الوعي الصوتي', 1, '2026.1'),
  ('decoding', 'فك الرموز', 2, '2026.1'),
  ('fluency', 'الطلاقة القرائية', 3, '2026.1'),
  ('comprehension', 'الفهم القرائي', 4, '2026.1'),
  ('spelling', 'الإملاء', 5, '2026.1'),
  ('morphology', 'الوعي الصرفي', 6, '2026.1');

create table content_skills (
  id              text primary key check (id ~ '^[a-z][a-z_]*$'),
  macro_domain_id text not null references content_macro_domains (id),
  label_ar        text not null,
  ordinal         smallint not null unique,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_skills (id, macro_domain_id, label_ar, ordinal, catalog_version) values
  ('letter_sounds', 'decoding', 'أصوات الحروف', 1, '2026.1'),
  ('syllable_blending', 'phonological_awareness', 'دمج المقاطع', 2, '2026.1'),
  ('phoneme_awareness', 'phonological_awareness', 'تمييز الأصوات في الكلمة', 3, '2026.1'),
  ('familiar_word_reading', 'decoding', 'قراءة الكلمات المألوفة', 4, '2026.1'),
  ('pseudoword_decoding', 'decoding', 'قراءة الكلمات المصنوعة', 5, '2026.1'),
  ('oral_text_reading', 'fluency', 'القراءة الجهرية للنص', 6, '2026.1'),
  ('literal_comprehension', 'comprehension', 'الفهم الحرفي', 7, '2026.1'),
  ('inferential_comprehension', 'comprehension', 'الفهم الاستنتاجي', 8, '2026.1'),
  ('spelling_patterns', 'spelling', 'أنماط الإملاء', 9, '2026.1'),
  ('root_awareness', 'morphology', 'الوعي بالجذر', 10, '2026.1');

create table content_sub_skills (
  id              text primary key check (id ~ '^[a-z][a-z0-9_]*$'),
  skill_id        text not null references content_skills (id),
  label_ar        text not null,
  grade_min       smallint not null check (grade_min between 1 and 4),
  grade_max       smallint not null check (grade_max between 1 and 4),
  ordinal         smallint not null unique,
  catalog_version text not null references content_catalog_releases (version),
  check (grade_min <= grade_max)
);
insert into content_sub_skills (id, skill_id, label_ar, grade_min, grade_max, ordinal, catalog_version) values
  ('ls_short_vowels', 'letter_sounds', 'الحروف مع الحركات القصيرة', 1, 2, 1, '2026.1'),
  ('ls_long_vowels', 'letter_sounds', 'الحروف مع المدود', 1, 2, 2, '2026.1'),
  ('sb_open_syllables', 'syllable_blending', 'دمج المقاطع المفتوحة', 1, 2, 3, '2026.1'),
  ('sb_word_building', 'syllable_blending', 'تركيب الكلمة من مقاطعها', 1, 3, 4, '2026.1'),
  ('pa_initial_sound', 'phoneme_awareness', 'تمييز الصوت الأول', 1, 2, 5, '2026.1'),
  ('pa_final_sound', 'phoneme_awareness', 'تمييز الصوت الأخير', 1, 2, 6, '2026.1'),
  ('fw_common_words', 'familiar_word_reading', 'الكلمات الشائعة', 1, 4, 7, '2026.1'),
  ('pw_closed_syllables', 'pseudoword_decoding', 'المقاطع المغلقة في كلمات مصنوعة', 1, 4, 8, '2026.1'),
  ('or_connected_text', 'oral_text_reading', 'قراءة نص متصل', 1, 4, 9, '2026.1'),
  ('lc_explicit_detail', 'literal_comprehension', 'استخراج معلومة صريحة', 1, 4, 10, '2026.1'),
  ('lc_event_order', 'literal_comprehension', 'ترتيب الأحداث', 2, 4, 11, '2026.1'),
  ('ic_main_idea', 'inferential_comprehension', 'الفكرة الرئيسة', 2, 4, 12, '2026.1'),
  ('ic_inference', 'inferential_comprehension', 'الاستنتاج من النص', 3, 4, 13, '2026.1'),
  ('sp_sun_moon_lam', 'spelling_patterns', 'اللام الشمسية واللام القمرية', 1, 3, 14, '2026.1'),
  ('sp_taa_forms', 'spelling_patterns', 'التاء المربوطة والتاء المفتوحة', 2, 4, 15, '2026.1'),
  ('sp_hamza', 'spelling_patterns', 'كتابة الهمزة', 3, 4, 16, '2026.1'),
  ('ra_extract_root', 'root_awareness', 'استخراج الجذر', 3, 4, 17, '2026.1'),
  ('ra_word_family', 'root_awareness', 'عائلة الكلمة', 3, 4, 18, '2026.1');

-- Measures: what a screening sitting measures, per grade range. teacher_cell is the teacher-page cell the
-- measure fills; section_key groups a digital measure's questions for presentation (spec: sections).
-- form_item_count: questions a screening form holds for a digital measure (null for oral measures).
-- scoring_status 'provisional': the scoring table is not yet normed (spec: provisional_scoring_table).
create table content_measures (
  measure_code       text primary key check (measure_code ~ '^[a-z][a-z0-9_]*$'),
  label_ar           text not null,
  skill_id           text not null references content_skills (id),
  grade_min          smallint not null check (grade_min between 1 and 4),
  grade_max          smallint not null check (grade_max between 1 and 4),
  mode               text not null check (mode in ('digital', 'oral')),
  teacher_cell       text not null check (teacher_cell in ('digital', 'oral_text', 'oral_familiar_words', 'oral_pseudowords')),
  section_key        text check (section_key in ('text1', 'text2', 'words', 'spelling', 'roots')),
  form_item_count    smallint check (form_item_count between 1 and 60),
  minutes_per_student smallint not null check (minutes_per_student between 1 and 30),
  scoring_status     text not null check (scoring_status in ('normed', 'provisional')),
  ordinal            smallint not null unique,
  catalog_version    text not null references content_catalog_releases (version),
  check (grade_min <= grade_max),
  check ((mode = 'digital') = (teacher_cell = 'digital')),
  check ((mode = 'digital') = (section_key is not null and form_item_count is not null))
);
insert into content_measures
  (measure_code, label_ar, skill_id, grade_min, grade_max, mode, teacher_cell, section_key, form_item_count,
   minutes_per_student, scoring_status, ordinal, catalog_version)
values
  ('word_recognition', 'التعرّف على الكلمات', 'familiar_word_reading', 1, 2, 'digital', 'digital', 'words', 4, 4, 'normed', 1, '2026.1'),
  ('text1_comprehension', 'فهم النص الأول', 'literal_comprehension', 1, 4, 'digital', 'digital', 'text1', 3, 5, 'normed', 2, '2026.1'),
  ('text2_comprehension', 'فهم النص الثاني', 'inferential_comprehension', 3, 4, 'digital', 'digital', 'text2', 3, 5, 'normed', 3, '2026.1'),
  ('spelling_choice', 'الإملاء', 'spelling_patterns', 2, 4, 'digital', 'digital', 'spelling', 3, 3, 'normed', 4, '2026.1'),
  ('root_identification', 'الجذور', 'root_awareness', 3, 4, 'digital', 'digital', 'roots', 3, 3, 'provisional', 5, '2026.1'),
  ('orf_text', 'قراءة نص جهرية', 'oral_text_reading', 1, 4, 'oral', 'oral_text', null, null, 3, 'normed', 6, '2026.1'),
  ('orf_short_text', 'قراءة نص قصير جهرية', 'oral_text_reading', 1, 2, 'oral', 'oral_text', null, null, 2, 'normed', 7, '2026.1'),
  ('familiar_words_list', 'قراءة قائمة كلمات مألوفة', 'familiar_word_reading', 1, 4, 'oral', 'oral_familiar_words', null, null, 2, 'normed', 8, '2026.1'),
  ('pseudowords_list', 'قراءة قائمة كلمات مصنوعة', 'pseudoword_decoding', 1, 4, 'oral', 'oral_pseudowords', null, null, 2, 'normed', 9, '2026.1');

create table content_item_patterns (
  code            text primary key check (code ~ '^[a-z][a-z_]*$'),
  label_ar        text not null,
  needs_passage   boolean not null,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_item_patterns (code, label_ar, needs_passage, catalog_version) values
  ('word_match', 'اختيار الكلمة المطابقة', false, '2026.1'),
  ('missing_letter', 'إكمال الحرف الناقص', false, '2026.1'),
  ('syllable_join', 'تركيب الكلمة من المقاطع', false, '2026.1'),
  ('initial_sound', 'الكلمة التي تبدأ بالصوت نفسه', false, '2026.1'),
  ('final_sound', 'الكلمة التي تنتهي بالصوت نفسه', false, '2026.1'),
  ('vowel_choice', 'اختيار الحركة أو المد', false, '2026.1'),
  ('passage_literal', 'سؤال عن معلومة في النص', true, '2026.1'),
  ('passage_inference', 'سؤال استنتاجي عن النص', true, '2026.1'),
  ('spelling_choice', 'اختيار الكتابة الصحيحة', false, '2026.1'),
  ('root_choice', 'اختيار جذر الكلمة', false, '2026.1'),
  ('word_family', 'اختيار كلمة من العائلة نفسها', false, '2026.1');

create table content_training_levels (
  number          smallint primary key check (number between 1 and 4),
  name_ar         text not null,
  catalog_version text not null references content_catalog_releases (version)
);
insert into content_training_levels (number, name_ar, catalog_version) values
  (1, 'البداية', '2026.1'), (2, 'النموّ', '2026.1'), (3, 'الثبات', '2026.1'), (4, 'الإتقان', '2026.1');

-- Word-list cells: the grades and skills a word list can serve, with the word-count bounds a list must meet.
create table content_word_list_cells (
  grade           smallint not null references content_grades (grade),
  skill_id        text not null references content_skills (id),
  min_words       smallint not null check (min_words >= 1),
  max_words       smallint not null,
  catalog_version text not null references content_catalog_releases (version),
  primary key (grade, skill_id),
  check (max_words >= min_words)
);
insert into content_word_list_cells (grade, skill_id, min_words, max_words, catalog_version) values
  (1, 'familiar_word_reading', 10, 30, '2026.1'), (1, 'pseudoword_decoding', 10, 30, '2026.1'),
  (2, 'familiar_word_reading', 15, 40, '2026.1'), (2, 'pseudoword_decoding', 15, 40, '2026.1'),
  (3, 'familiar_word_reading', 20, 60, '2026.1'), (3, 'pseudoword_decoding', 20, 50, '2026.1'),
  (4, 'familiar_word_reading', 25, 80, '2026.1'), (4, 'pseudoword_decoding', 20, 60, '2026.1');
