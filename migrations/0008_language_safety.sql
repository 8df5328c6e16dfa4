-- Language safety (packages/language-safety, docs/language-safety.md): the versioned rule set every string
-- shown to a parent or a student passes. Kept in the database so the filter can be reported unavailable
-- (503 LANGUAGE_SAFETY_UNAVAILABLE) instead of letting text through unfiltered. Forward-only: a published
-- version never changes; a change is a new version (a new migration) that repeats every rule it keeps.
-- The filter applies the highest version.

create table language_safety_rule_sets (
  version      integer primary key check (version >= 1),
  description  text not null check (description <> ''),
  created_at   timestamptz not null default now()
);

create table language_safety_rules (
  rule_set_version  integer not null references language_safety_rule_sets (version),
  -- Stable across versions: LS-DEF deficit words, LS-LBL labels, LS-ENG English forms, LS-CMP comparisons,
  -- LS-NUM digits, LS-PCT percent, LS-TOK internal tokens.
  rule_id           text not null check (rule_id ~ '^LS-[A-Z]{3}-[0-9]{3}$'),
  -- general: student- and teacher-facing strings (and parents'); parent: the stricter parent-only rules.
  tier              text not null check (tier in ('general', 'parent')),
  kind              text not null check (kind in ('word', 'comparison', 'pattern')),
  -- Already normalized (bare alef, ه for ة, ي for ى, no diacritics or tatweel, lowercase, single spaces).
  match_text        text check (
                      match_text <> '' and match_text = btrim(match_text) and match_text = lower(match_text)
                      and match_text !~ '[أإآٱةىـ\u064B-\u065F\u0670]' and match_text !~ '\s\s'),
  -- JavaScript regex source (flags gu), matched on the normalized text.
  match_regex       text check (match_regex <> ''),
  case_sensitive    boolean not null default false,
  -- The growth-language rewrite; null removes the match.
  replacement       text check (replacement <> ''),
  -- A sentence on which this rule and no other fires: the integration tests check every one.
  example           text not null check (example <> ''),
  gloss             text not null check (gloss <> ''),
  primary key (rule_set_version, rule_id),
  check ((match_text is null) <> (match_regex is null)),
  check (kind <> 'word' or match_text is not null),
  check (kind <> 'pattern' or match_regex is not null),
  check (kind = 'pattern' or not case_sensitive)
);

create function language_safety_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception '% is forward-only: % refused; publish a new rule-set version', tg_table_name, tg_op
    using errcode = 'restrict_violation';
end;
$$;
create trigger language_safety_rule_sets_forward_only before update or delete on language_safety_rule_sets
  for each row execute function language_safety_refuse_change();
create trigger language_safety_rules_forward_only before update or delete on language_safety_rules
  for each row execute function language_safety_refuse_change();

-- A version's rules are written in the transaction that creates the version, never added to it later.
create function language_safety_rules_same_transaction() returns trigger language plpgsql as $$
begin
  if (select created_at from language_safety_rule_sets where version = new.rule_set_version) is distinct from now() then
    raise exception 'rule-set version % is already published; publish a new version', new.rule_set_version
      using errcode = 'restrict_violation';
  end if;
  return new;
end;
$$;
create trigger language_safety_rules_published_once before insert on language_safety_rules
  for each row execute function language_safety_rules_same_transaction();

-- Version 1 ------------------------------------------------------------------------------------------------
insert into language_safety_rule_sets (version, description) values
  (1, 'first authored set: Arabic deficit and labeling words with inflections, English forms, comparisons with other children; parent tier: digits, percent, internal tokens');

-- Deficit words (weak, failing, behind, slow, struggling, at risk, poor, low, below level, cannot, problem).
-- Listed without attached prefixes: و ف, ب ك ل and the article ال (لل) are matched by the filter, and so is
-- the accusative tanween alef (ضعيفاً).
insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
select 1, v.rule_id, 'general', 'word', v.match_text, v.replacement, v.example, v.gloss
from (values
  ('LS-DEF-001', 'ضعيف', 'في طور التعلّم', 'الطالبُ ضعيفٌ في القراءة', 'weak (m.)'),
  ('LS-DEF-002', 'ضعيفه', 'في طور التعلّم', 'ابنتكِ ضعيفةٌ في الإملاء', 'weak (f.)'),
  ('LS-DEF-003', 'ضعفاء', 'في طور التعلّم', 'هؤلاء الطلاب ضعفاء في الكتابة', 'weak (m. pl.)'),
  ('LS-DEF-004', 'ضعاف', 'في طور التعلّم', 'مجموعة الطلاب الضعاف', 'weak (broken pl.)'),
  ('LS-DEF-005', 'ضعيفات', 'في طور التعلّم', 'والطالباتُ ضعيفـــات في التهجئة', 'weak (f. pl.)'),
  ('LS-DEF-006', 'ضعف', 'حاجة إلى دعم', 'يظهر لديه ضعفٌ في الفهم', 'weakness'),
  ('LS-DEF-007', 'ضعفه', 'حاجته إلى دعم', 'لاحظنا ضعفَه في القراءة', 'his weakness'),
  ('LS-DEF-008', 'ضعفها', 'حاجتها إلى دعم', 'لاحظنا ضعفها في الكتابة', 'her weakness'),
  ('LS-DEF-009', 'نقاط الضعف', 'جوانب النمو', 'هذه نقاط الضعف عند الطفل', 'weak points'),
  ('LS-DEF-010', 'اضعف', 'بحاجة إلى دعم إضافي', 'هذه القراءة هي الأضعف عنده', 'weaker, weakest'),
  ('LS-DEF-011', 'راسب', 'بحاجة إلى فرصة أخرى', 'أحمد راسبٌ في مادة اللغة', 'failing, failed (m.)'),
  ('LS-DEF-012', 'راسبه', 'بحاجة إلى فرصة أخرى', 'سلمى راسبة في الإملاء', 'failing, failed (f.)'),
  ('LS-DEF-013', 'راسبين', 'بحاجة إلى فرصة أخرى', 'قائمة الطلاب الراسبين', 'failing (pl., oblique)'),
  ('LS-DEF-014', 'راسبون', 'بحاجة إلى فرصة أخرى', 'هم راسبون في الاختبار', 'failing (pl.)'),
  ('LS-DEF-015', 'رسوب', 'حاجة إلى فرصة أخرى', 'هناك خطر رسوب في نهاية العام', 'failure (of a grade)'),
  ('LS-DEF-016', 'رسب', 'لم يتقن المهارة بعد', 'رسب في اختبار القراءة', 'he failed'),
  ('LS-DEF-017', 'رسبت', 'لم تتقن المهارة بعد', 'رسبت في اختبار الإملاء', 'she failed'),
  ('LS-DEF-018', 'فاشل', 'يتعلّم من المحاولة', 'لا تقل إنه فاشل', 'a failure (m.)'),
  ('LS-DEF-019', 'فاشله', 'تتعلّم من المحاولة', 'ليست فاشلةً أبدًا', 'a failure (f.)'),
  ('LS-DEF-020', 'فشل', 'ما زال يتدرّب', 'فشل في قراءة الجملة', 'failure; he failed'),
  ('LS-DEF-021', 'فشلت', 'ما زالت تتدرّب', 'فشلت في نطق الحروف', 'she failed'),
  ('LS-DEF-022', 'يفشل', 'ما زال يتدرّب', 'يفشل دائمًا في التهجئة', 'he fails'),
  ('LS-DEF-023', 'متاخر', 'يتقدّم بوتيرته الخاصة', 'ابنك متأخرٌ في القراءة', 'behind (m.)'),
  ('LS-DEF-024', 'متاخره', 'تتقدّم بوتيرتها الخاصة', 'الطالبة متأخرة في الكتابة', 'behind (f.)'),
  ('LS-DEF-025', 'متاخرين', 'يتقدّمون بوتيرتهم الخاصة', 'مجموعة المتأخرين تحتاج وقتًا', 'behind (pl., oblique)'),
  ('LS-DEF-026', 'متاخرون', 'يتقدّمون بوتيرتهم الخاصة', 'هم متأخرون في الحروف', 'behind (pl.)'),
  ('LS-DEF-027', 'متاخرات', 'يتقدّمن بوتيرتهن الخاصة', 'الطالبات المتأخرات في القراءة', 'behind (f. pl.)'),
  ('LS-DEF-028', 'تاخر دراسي', 'حاجة إلى دعم في التعلّم', 'لديه تأخّرٌ دراسيٌّ واضح', 'academic delay'),
  ('LS-DEF-029', 'التاخر الدراسي', 'الحاجة إلى دعم في التعلّم', 'علامات التأخر الدراسي', 'the academic delay'),
  ('LS-DEF-030', 'تاخر قرائي', 'حاجة إلى دعم في القراءة', 'يظهر عليه تأخر قرائي', 'reading delay'),
  ('LS-DEF-031', 'بطيء', 'يتقدّم بوتيرته الخاصة', 'الطالب بطيءٌ في القراءة', 'slow (m.)'),
  ('LS-DEF-032', 'بطيئه', 'تتقدّم بوتيرتها الخاصة', 'قراءتها بطيئة جدًا', 'slow (f.)'),
  ('LS-DEF-033', 'بطيئين', 'يتقدّمون بوتيرتهم الخاصة', 'مجموعة القرّاء البطيئين', 'slow (pl., oblique)'),
  ('LS-DEF-034', 'بطيئون', 'يتقدّمون بوتيرتهم الخاصة', 'هم بطيئون في الكتابة', 'slow (pl.)'),
  ('LS-DEF-035', 'بطء', 'تأنٍّ', 'لاحظنا بطءَ قراءته', 'slowness'),
  ('LS-DEF-036', 'ببطء', 'بتأنٍّ', 'يقرأ ببطءٍ شديد', 'slowly'),
  ('LS-DEF-037', 'بطيء التعلم', 'يتعلّم بوتيرته الخاصة', 'طفل بطيء التعلّم', 'slow learner'),
  ('LS-DEF-038', 'متعثر', 'يتقدّم خطوة بخطوة', 'قارئ متعثّر', 'struggling (m.)'),
  ('LS-DEF-039', 'متعثره', 'تتقدّم خطوة بخطوة', 'قارئة متعثرة', 'struggling (f.)'),
  ('LS-DEF-040', 'متعثرين', 'يتقدّمون خطوة بخطوة', 'دروس للقرّاء المتعثرين', 'struggling (pl., oblique)'),
  ('LS-DEF-041', 'متعثرون', 'يتقدّمون خطوة بخطوة', 'هم متعثرون في القراءة', 'struggling (pl.)'),
  ('LS-DEF-042', 'تعثر', 'تحدٍّ', 'لاحظنا تعثرًا في القراءة', 'stumbling'),
  ('LS-DEF-043', 'يتعثر', 'ما زال يتدرّب', 'يتعثر عند قراءة الكلمات الطويلة', 'he struggles'),
  ('LS-DEF-044', 'تتعثر', 'ما زالت تتدرّب', 'تتعثر في نطق بعض الحروف', 'she struggles'),
  ('LS-DEF-045', 'يعاني من صعوبه', 'بحاجة إلى دعم', 'يعاني من صعوبة في القراءة', 'he suffers from a difficulty'),
  ('LS-DEF-046', 'تعاني من صعوبه', 'بحاجة إلى دعم', 'تعاني من صعوبة في الكتابة', 'she suffers from a difficulty'),
  ('LS-DEF-047', 'يعاني من صعوبات', 'بحاجة إلى دعم', 'يعاني من صعوبات في الفهم', 'he suffers from difficulties'),
  ('LS-DEF-048', 'صعوبات التعلم', 'الحاجة إلى دعم في التعلّم', 'تقييم صعوبات التعلّم', 'learning difficulties (label)'),
  ('LS-DEF-049', 'صعوبات تعلم', 'حاجة إلى دعم في التعلّم', 'لديه صعوبات تعلّم', 'learning difficulties'),
  ('LS-DEF-050', 'معرض للخطر', 'سيستفيد من دعم مبكر', 'الطالب معرّضٌ للخطر', 'at risk (m.)'),
  ('LS-DEF-051', 'معرضه للخطر', 'ستستفيد من دعم مبكر', 'الطالبة معرضة للخطر', 'at risk (f.)'),
  ('LS-DEF-052', 'معرضين للخطر', 'سيستفيدون من دعم مبكر', 'قائمة الطلاب المعرضين للخطر', 'at risk (pl.)'),
  ('LS-DEF-053', 'في دائره الخطر', 'بحاجة إلى دعم مبكر', 'الطفل في دائرة الخطر', 'in the danger zone'),
  ('LS-DEF-054', 'سيء', 'بحاجة إلى دعم', 'مستواه سيءٌ في الإملاء', 'bad, poor (m.)'),
  ('LS-DEF-055', 'سيئ', 'بحاجة إلى دعم', 'أداؤه سيئ', 'bad, poor (m., spelled with ئ)'),
  ('LS-DEF-056', 'سيئه', 'بحاجة إلى دعم', 'قراءتها سيئة', 'bad, poor (f.)'),
  ('LS-DEF-057', 'رديء', 'بحاجة إلى تحسين', 'خطه رديء', 'poor quality (m.)'),
  ('LS-DEF-058', 'رديئه', 'بحاجة إلى تحسين', 'كتابتها رديئة', 'poor quality (f.)'),
  ('LS-DEF-059', 'متدني', 'في طور النمو', 'مستواه متدني', 'low (m.)'),
  ('LS-DEF-060', 'متدن', 'في طور النمو', 'مستوى متدنٍّ في الفهم', 'low (m., indefinite)'),
  ('LS-DEF-061', 'متدنيه', 'في طور النمو', 'نتائج متدنية', 'low (f.)'),
  ('LS-DEF-062', 'مستوي منخفض', 'مستوى في طور النمو', 'لديه مستوى منخفض في القراءة', 'low level'),
  ('LS-DEF-063', 'مستواه منخفض', 'مستواه في طور النمو', 'مستواه منخفضٌ في الفهم', 'his level is low'),
  ('LS-DEF-064', 'مستواها منخفض', 'مستواها في طور النمو', 'مستواها منخفض في الكتابة', 'her level is low'),
  ('LS-DEF-065', 'منخفض التحصيل', 'بحاجة إلى دعم', 'طالب منخفض التحصيل', 'low achiever'),
  ('LS-DEF-066', 'منخفضي التحصيل', 'بحاجة إلى دعم', 'برنامج للطلاب منخفضي التحصيل', 'low achievers'),
  ('LS-DEF-067', 'دون المستوي', 'في الطريق إلى المستوى', 'قراءته دون المستوى المطلوب', 'below the level'),
  ('LS-DEF-068', 'دون مستوي', 'في الطريق إلى مستوى', 'يقرأ دون مستوى صفّه', 'below the level of'),
  ('LS-DEF-069', 'تحت المستوي', 'في الطريق إلى المستوى', 'نتيجته تحت المستوى', 'under the level'),
  ('LS-DEF-070', 'تحت مستوي', 'في الطريق إلى مستوى', 'يقرأ تحت مستوى الصف الثاني', 'under the level of'),
  ('LS-DEF-071', 'اقل من المستوي', 'في الطريق إلى المستوى', 'أداؤه أقل من المستوى المتوقع', 'below the level'),
  ('LS-DEF-072', 'اقل من المتوقع', 'يتقدّم نحو المتوقع', 'قراءتها أقل من المتوقع', 'below expectations'),
  ('LS-DEF-073', 'دون المتوسط', 'يتقدّم نحو الهدف', 'نتيجته دون المتوسط', 'below average'),
  ('LS-DEF-074', 'اقل من المتوسط', 'يتقدّم نحو الهدف', 'مستواه أقل من المتوسط', 'below average'),
  ('LS-DEF-075', 'دون المطلوب', 'في الطريق إلى المطلوب', 'الأداء دون المطلوب', 'below what is required'),
  ('LS-DEF-076', 'لا يستطيع', 'يتعلّم', 'لا يستطيع قراءة الكلمات الطويلة', 'he cannot'),
  ('LS-DEF-077', 'لا تستطيع', 'تتعلّم', 'ابنتك لا تستطيع التمييز بين الحروف', 'she cannot'),
  ('LS-DEF-078', 'لا يقدر علي', 'يتعلّم', 'لا يقدر على التهجئة', 'he is not able to'),
  ('LS-DEF-079', 'غير قادر علي', 'يتعلّم', 'غير قادر على الكتابة', 'unable to (m.)'),
  ('LS-DEF-080', 'غير قادره علي', 'تتعلّم', 'غير قادرة على القراءة', 'unable to (f.)'),
  ('LS-DEF-081', 'عاجز عن', 'يتعلّم', 'عاجز عن نطق الكلمة', 'incapable of (m.)'),
  ('LS-DEF-082', 'عاجز', 'بحاجة إلى دعم', 'يبدو عاجزًا أمام النص', 'helpless, incapable (m.)'),
  ('LS-DEF-083', 'عاجزه', 'بحاجة إلى دعم', 'تبدو عاجزةً أمام الأسئلة', 'helpless, incapable (f.)'),
  ('LS-DEF-084', 'لا يعرف', 'يتعلّم', 'لا يعرف أسماء الحروف', 'he does not know'),
  ('LS-DEF-085', 'مشكله في', 'تحدٍّ في', 'لديه مشكلة في النطق', 'a problem with'),
  ('LS-DEF-086', 'مشاكل في', 'تحديات في', 'عنده مشاكل في القراءة', 'problems with'),
  ('LS-DEF-087', 'مشكلات في', 'تحديات في', 'تظهر مشكلات في الفهم', 'problems with')
) as v (rule_id, match_text, replacement, example, gloss);

-- Labels put on a child.
insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
select 1, v.rule_id, 'general', 'word', v.match_text, v.replacement, v.example, v.gloss
from (values
  ('LS-LBL-001', 'كسول', 'بحاجة إلى تشجيع', 'طفلك كسولٌ في الواجبات', 'lazy (m.)'),
  ('LS-LBL-002', 'كسوله', 'بحاجة إلى تشجيع', 'ابنتك كسولة أحيانًا', 'lazy (f.)'),
  ('LS-LBL-003', 'كسالي', 'بحاجة إلى تشجيع', 'هؤلاء الطلاب كسالى', 'lazy (pl.)'),
  ('LS-LBL-004', 'كسلان', 'بحاجة إلى تشجيع', 'يبدو كسلانَ اليوم', 'lazy (m., كسلان)'),
  ('LS-LBL-005', 'كسل', 'حاجة إلى تشجيع', 'يظهر عليه الكسلُ', 'laziness'),
  ('LS-LBL-006', 'متكاسل', 'بحاجة إلى تشجيع', 'متكاسل في أداء المهام', 'slacking (m.)'),
  ('LS-LBL-007', 'متكاسله', 'بحاجة إلى تشجيع', 'متكاسلة في القراءة', 'slacking (f.)'),
  ('LS-LBL-008', 'غبي', 'يتعلّم بطريقته', 'لا تقل عنه غبي', 'stupid (m.)'),
  ('LS-LBL-009', 'غبيه', 'تتعلّم بطريقتها', 'لا تصفها بأنها غبية', 'stupid (f.)'),
  ('LS-LBL-010', 'اغبياء', 'يتعلّمون بطرقهم', 'يظنهم أغبياء', 'stupid (pl.)'),
  ('LS-LBL-011', 'بليد', 'يتعلّم بطريقته', 'طالب بليد', 'dull (m.)'),
  ('LS-LBL-012', 'بليده', 'تتعلّم بطريقتها', 'طالبة بليدة', 'dull (f.)'),
  ('LS-LBL-013', 'متخلف', 'بحاجة إلى دعم', 'طفل متخلف دراسيًا', 'backward, retarded (m.)'),
  ('LS-LBL-014', 'متخلفه', 'بحاجة إلى دعم', 'طالبة متخلفة', 'backward, retarded (f.)'),
  ('LS-LBL-015', 'مهمل', 'بحاجة إلى تنظيم', 'الطالب مهمل في واجباته', 'careless (m.)'),
  ('LS-LBL-016', 'مهمله', 'بحاجة إلى تنظيم', 'كانت مهملة في الكتابة', 'careless (f.)'),
  ('LS-LBL-017', 'مشاغب', 'نشيط ويحتاج إلى توجيه', 'طفل مشاغب', 'troublemaker (m.)'),
  ('LS-LBL-018', 'مشاغبه', 'نشيطة وتحتاج إلى توجيه', 'طالبة مشاغبة', 'troublemaker (f.)'),
  ('LS-LBL-019', 'عسر القراءه', 'حاجة إلى دعم في القراءة', 'يعاني من عسر القراءة', 'dyslexia (a diagnosis this service never makes)'),
  ('LS-LBL-020', 'ديسلكسيا', 'حاجة إلى دعم في القراءة', 'لديه ديسلكسيا', 'dyslexia (loanword)'),
  ('LS-LBL-021', 'معاق', 'بحاجة إلى دعم', 'طفل معاق', 'disabled (label)'),
  ('LS-LBL-022', 'اعاقه', 'حاجة إلى دعم', 'لديه إعاقة في التعلّم', 'disability (label)'),
  ('LS-LBL-023', 'اسوا', 'بحاجة إلى دعم إضافي', 'هذه أسوأ قراءة له', 'worse, worst'),
  ('LS-LBL-024', 'ميؤوس منه', 'قادر على التقدّم', 'طالب ميؤوس منه', 'hopeless (m.)'),
  ('LS-LBL-025', 'ميؤوس منها', 'قادرة على التقدّم', 'حالتها ميؤوس منها', 'hopeless (f.)')
) as v (rule_id, match_text, replacement, example, gloss);

-- English forms (strings mixing in English words); rewritten in English.
insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
select 1, v.rule_id, 'general', 'word', v.match_text, v.replacement, v.example, v.gloss
from (values
  ('LS-ENG-001', 'weak', 'still developing', 'He is weak in reading.', 'weak'),
  ('LS-ENG-002', 'weakness', 'growth area', 'Spelling is a weakness for her.', 'weakness'),
  ('LS-ENG-003', 'weaknesses', 'growth areas', 'Her weaknesses are long vowels.', 'weaknesses'),
  ('LS-ENG-004', 'failing', 'still learning', 'She is failing phonics.', 'failing'),
  ('LS-ENG-005', 'failed', 'is still working on', 'He failed the spelling test.', 'failed'),
  ('LS-ENG-006', 'failure', 'learning step', 'That test was a failure.', 'failure'),
  ('LS-ENG-007', 'fails', 'is practicing', 'He fails at blending sounds.', 'fails'),
  ('LS-ENG-008', 'behind', 'progressing at their own pace', 'She is behind in reading.', 'behind'),
  ('LS-ENG-009', 'slow', 'steady', 'He is a slow reader.', 'slow'),
  ('LS-ENG-010', 'slow learner', 'steady learner', 'She is a slow learner.', 'slow learner'),
  ('LS-ENG-011', 'lazy', 'in need of encouragement', 'He is lazy about homework.', 'lazy'),
  ('LS-ENG-012', 'at risk', 'ready for extra support', 'This child is at risk.', 'at risk'),
  ('LS-ENG-013', 'at-risk', 'early-support', 'an at-risk reader', 'at-risk'),
  ('LS-ENG-014', 'struggling', 'developing', 'a struggling reader', 'struggling'),
  ('LS-ENG-015', 'struggles', 'practices', 'She struggles with vowels.', 'struggles'),
  ('LS-ENG-016', 'poor', 'developing', 'His reading is poor.', 'poor'),
  ('LS-ENG-017', 'below level', 'working toward the level', 'He reads below level.', 'below level'),
  ('LS-ENG-018', 'below grade level', 'working toward grade level', 'She reads below grade level.', 'below grade level'),
  ('LS-ENG-019', 'below average', 'working toward the goal', 'His fluency is below average.', 'below average'),
  ('LS-ENG-020', 'low', 'developing', 'Her fluency is low.', 'low'),
  ('LS-ENG-021', 'low achiever', 'developing learner', 'He is a low achiever.', 'low achiever'),
  ('LS-ENG-022', 'problem', 'challenge', 'He has a problem with letters.', 'problem'),
  ('LS-ENG-023', 'problems', 'challenges', 'She has problems with spelling.', 'problems'),
  ('LS-ENG-024', 'can''t', 'is learning to', 'He can''t read long words.', 'can''t'),
  ('LS-ENG-025', 'cannot', 'is learning to', 'She cannot spell her name.', 'cannot'),
  ('LS-ENG-026', 'unable to', 'learning to', 'He is unable to blend sounds.', 'unable to'),
  ('LS-ENG-027', 'stupid', 'learning in their own way', 'He is not stupid.', 'stupid'),
  ('LS-ENG-028', 'dumb', 'learning in their own way', 'Nobody is dumb here.', 'dumb'),
  ('LS-ENG-029', 'careless', 'still building habits', 'He is careless with spelling.', 'careless'),
  ('LS-ENG-030', 'deficit', 'growth area', 'She has a reading deficit.', 'deficit')
) as v (rule_id, match_text, replacement, example, gloss);

-- Comparisons with other children, and ranks. {PEERS} (Arabic) and {PEERS_EN} stand for the other children a
-- child is compared with: classmates, peers, friends, siblings, the other pupils or children, "the others".
insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, match_regex, replacement, example, gloss)
select 1, v.rule_id, 'general', 'comparison', v.match_text,
       replace(replace(v.match_regex, '{PEERS}', p.ar), '{PEERS_EN}', p.en), v.replacement, v.example, v.gloss
from (values (
  '(?:(?:باقي|بقيه|سائر|معظم|كل)\s+)?(?:ال)?(?:زملا[ءئؤ]|زميل|اقران|رفاق|اصدقا[ءئؤ]|صديق|اخو(?:ت|ان|ات)|طلاب|طالبات|تلاميذ|تلميذات|اطفال|اولاد|بنات)\p{L}*(?:\s+(?:ال)?(?:اخر|اخري|اخرين)\p{L}*)?|(?:ال)?اخرين|غير(?:ه|ها|هم)|اخي(?:ه|ها|ك)|اخو(?:ه|ها|ك)|اخت(?:ه|ها|ك)?|شقيق\p{L}*|(?:ال)?(?:طفل|طالب|طالبه)\s+(?:ال)?(?:اخر|اخري)',
  '(?:(?:his|her|their|the|most|all|other|of)\s+)*(?:classmates?|peers?|siblings?|brothers?|sisters?|children|kids|students|others)'
)) as p (ar, en)
cross join (values
  ('LS-CMP-001', null::text, '(?:اقل|اضعف|ابطا|اسوا|ادني|اكثر\s+ضعفا|اكثر\s+بطءا|اكثر\s+بطئا)(?:\s+(?:مستوي|اداء|قدره))?\s+(?:من|عن)\s+(?:{PEERS})',
   'يتقدّم بوتيرته الخاصة', 'هو أقلُّ من زملائه في القراءة', 'less, weaker, slower, worse than other children'),
  ('LS-CMP-002', null, '(?:افضل|احسن|اقوي|اسرع|اعلي|اذكي|امهر|اشطر)(?:\s+(?:مستوي|اداء))?\s+من\s+(?:{PEERS})',
   'يتقدّم بثبات', 'هو أشطرُ من إخوته', 'better, stronger, faster than other children'),
  ('LS-CMP-003', null, '(?:مقارنه|مقارنت(?:ه|ها|هم))\s+(?:ب|مع\s+|الي\s+)(?:{PEERS})',
   null, 'قراءته جيدة مقارنةً بزملائه.', 'compared with other children (removed)'),
  ('LS-CMP-004', null, 'قياسا\s+(?:ب|الي\s+|علي\s+)(?:{PEERS})',
   null, 'أداؤها جيد قياسًا بزميلاتها.', 'measured against other children (removed)'),
  ('LS-CMP-005', null, '(?:متاخر|متاخره|متاخرين|متاخرون|متاخرات)\s+عن\s+(?:{PEERS})',
   'يتقدّم بوتيرته الخاصة', 'متأخرٌ عن أقرانه في الحروف', 'behind other children'),
  ('LS-CMP-006', null, '(?:دون|تحت)\s+مستوي\s+(?:{PEERS})',
   'يتقدّم بوتيرته الخاصة', 'يقرأ دون مستوى أقرانه', 'below the level of other children'),
  ('LS-CMP-007', null, '(?:اخير|اخيره|اضعف|اسوا|اقل|ادني|ابطا)\s+(?:في|علي|بين)\s+(?:ال)?(?:صف|فصل|مجموعه|طلاب|طالبات|تلاميذ|زملا[ءئؤ]|اقران)\p{L}*',
   'يتقدّم بوتيرته الخاصة', 'جاء الأخيرَ في الصف', 'last, weakest in the class (rank)'),
  ('LS-CMP-008', null, '(?:اول|اوائل|افضل|احسن|اعلي|اشطر|اقوي|اسرع)\s+(?:في|علي|بين)\s+(?:ال)?(?:صف|فصل|مجموعه|طلاب|طالبات|تلاميذ|زملا[ءئؤ]|اقران)\p{L}*',
   'يتقدّم بثبات', 'كان الأولَ على الصف هذا العام', 'first, best in the class (rank)'),
  ('LS-CMP-009', 'ترتيبه', null, 'تقدّمه', 'تحسّن ترتيبُه هذا الشهر', 'his rank'),
  ('LS-CMP-010', 'ترتيبها', null, 'تقدّمها', 'ترتيبها في المجموعة تغيّر', 'her rank'),
  ('LS-CMP-011', null, 'ترتيب\s+(?:ال)?(?:طلاب|طالبات|تلاميذ|اطفال)',
   'تقدّم', 'نعرض ترتيبَ الطلاب كل أسبوع', 'ranking of the pupils'),
  ('LS-CMP-012', null, '(?:في\s+)?(?:ذيل|مؤخره|اسفل)\s+(?:ال)?(?:صف|فصل|ترتيب|مجموعه)',
   'يتقدّم بوتيرته الخاصة', 'هو في مؤخرة الفصل', 'at the bottom of the class'),
  ('LS-CMP-013', null, '(?:يسبقه|يسبقها|تسبقه|تسبقها|يسبقهم|يتقدمه|يتقدمها|تتقدمه|تتقدمها)\s+(?:{PEERS})',
   'يتقدّم بوتيرته الخاصة', 'يسبقُه زملاؤه في القراءة', 'other children are ahead of him or her'),
  ('LS-CMP-014', null, '(?:يتفوق|تتفوق|يتميز|تتميز)\s+علي\s+(?:{PEERS})',
   'يتقدّم بثبات', 'يتفوّق على زملائه في الإملاء', 'outperforms other children'),
  ('LS-CMP-015', null, '(?:ليس|ليست|ليسوا)\s+(?:مثل\s+|ك)(?:{PEERS})',
   'يتعلّم بطريقته', 'ليس مثلَ أخيه في القراءة', 'not like his or her siblings or classmates'),
  ('LS-CMP-016', null, '(?:behind|below|worse\s+than|weaker\s+than|slower\s+than|lower\s+than)\s+{PEERS_EN}',
   'progressing at their own pace', 'He is behind his classmates.', 'behind, below, worse than other children (English)'),
  ('LS-CMP-017', null, '(?:better|stronger|faster|smarter|higher)\s+than\s+{PEERS_EN}|ahead\s+of\s+{PEERS_EN}',
   'with growing confidence', 'She reads better than her peers.', 'better than other children (English)'),
  ('LS-CMP-018', null, 'compared\s+(?:to|with)\s+{PEERS_EN}',
   null, 'She reads well compared to her peers.', 'compared with other children (English, removed)'),
  ('LS-CMP-019', null, '(?:the\s+)?(?:last|lowest|bottom|worst|weakest|slowest|top|best|first)\s+(?:in|of)\s+(?:(?:the|his|her|their)\s+)?(?:class|group|grade)',
   'progressing at their own pace', 'He is the lowest in the class.', 'rank in the class (English)'),
  ('LS-CMP-020', null, '(?:class\s+)?rank(?:ed|ing|ings|s)?',
   'progress', 'His class ranking dropped.', 'rank, ranking (English)')
) as v (rule_id, match_text, match_regex, replacement, example, gloss);

-- Parent tier: no number, percent sign or internal token reaches a parent. Patterns are raw regexes (no
-- implicit word boundaries: a digit is refused anywhere). Removed rather than rewritten.
insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_regex, case_sensitive, replacement, example, gloss)
select 1, v.rule_id, 'parent', 'pattern', v.match_regex, v.case_sensitive, null, v.example, v.gloss
from (values
  ('LS-NUM-001', '[0-9]+(?:[.,٫٬][0-9]+)*', false, 'قرأ 45 كلمة في الدقيقة', 'Western digits'),
  ('LS-NUM-002', '[٠-٩]+(?:[.,٫٬][٠-٩]+)*', false, 'أتقن ١٢ حرفًا هذا الشهر', 'Arabic-Indic digits'),
  ('LS-NUM-003', '[۰-۹]+(?:[.,٫٬][۰-۹]+)*', false, 'أجاب عن ۸ أسئلة', 'Extended Arabic-Indic digits'),
  ('LS-PCT-001', '[0-9٠-٩۰-۹]+(?:[.,٫٬][0-9٠-٩۰-۹]+)*\s?[%٪]|[%٪]\s?[0-9٠-٩۰-۹]+(?:[.,٫٬][0-9٠-٩۰-۹]+)*',
   false, 'نسبة الإتقان ٨٠٪', 'a percentage in figures'),
  ('LS-PCT-002', '[%٪‰؉؊]', false, 'يظهر الرمز ٪ في التقرير', 'a percent or per-mille sign'),
  ('LS-PCT-003', '(?<![\p{L}\p{M}\p{N}_])[وف]?(?:[بل]?ال|في\s+ال)(?:مئه|مائه)(?![\p{L}\p{M}\p{N}_])',
   false, 'تحسّن أداؤه عشرين بالمئة', 'per cent in words (بالمئة، في المائة)'),
  ('LS-PCT-004', '(?<![\p{L}\p{M}\p{N}_])[وف]?[بل]?نسب(?:ه|ته|تها)\s+مئويه(?![\p{L}\p{M}\p{N}_])',
   false, 'أجاب بنسبة مئوية مرتفعة', 'a percentage in words'),
  ('LS-PCT-005', '(?<![\p{L}\p{M}\p{N}_])(?:percent(?:age)?|per\s+cent)(?![\p{L}\p{M}\p{N}_])',
   false, 'Accuracy rose by twenty percent.', 'percent (English)'),
  ('LS-TOK-001', '(?<![\p{L}\p{M}\p{N}_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\p{L}\p{M}\p{N}_])',
   false, 'الحالة الآن DATA_INCOMPLETE', 'snake-case internal tokens: DATA_INCOMPLETE, DO_NOT_DECIDE_YET, MERGE_L1_L2'),
  ('LS-TOK-002', '(?<![\p{L}\p{M}\p{N}_-])[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-[0-9]+(?![\p{L}\p{M}\p{N}_])',
   false, 'الملف PR2-00 لهذا الطفل', 'codes and ids: profile codes (PR2-00), rule ids (LS-DEF-012, GL-005)'),
  ('LS-TOK-003', '(?<![\p{L}\p{M}\p{N}_])[A-Z]{3,}(?![\p{L}\p{M}\p{N}_])',
   true, 'حالة المهارة الآن EMERGING', 'all-capital tokens (status values, personas)'),
  ('LS-TOK-004', '(?<![\p{L}\p{M}\p{N}_])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?![\p{L}\p{M}\p{N}_])',
   true, 'القيمة skillStatus غير متاحة', 'camelCase and PascalCase identifiers (field and type names)')
) as v (rule_id, match_regex, case_sensitive, example, gloss);
