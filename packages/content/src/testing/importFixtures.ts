/** Import fixtures with no test-runner dependency: small grade 1 Arabic items that pass the filter. */

export const SOURCE = { origin: 'authored_in_house', reference: 'كتبه فريق قراءة' } as const;
export const SIGNOFF = {
  agreementCode: 'AGR-2026-01',
  signedByName: 'لجنة مراجعة المحتوى',
  signedAt: '2026-01-15T09:00:00.000Z',
} as const;

export const STEM = 'اختر الكلمة المطابقة: بيت';
export const OPTIONS = [
  { key: 'a', text_ar: 'بيت' },
  { key: 'b', text_ar: 'بنت' },
  { key: 'c', text_ar: 'بيض' },
];

export type Row = Record<string, unknown>;

/** A level-1 training item of grade 1 (familiar words, word match). */
export const trainingItem = (externalId: string, over: Row = {}): Row => ({
  external_id: externalId,
  grade: 1,
  sub_skill_id: 'fw_common_words',
  item_pattern: 'word_match',
  training_level: 1,
  stem_ar: STEM,
  options: OPTIONS,
  correct_option_key: 'a',
  hint_ar: 'انظر إلى الحرف الأول',
  explanation_ar: 'كلمة بيت تبدأ بحرف الباء وتنتهي بحرف التاء',
  ...over,
});

export const itemBody = (items: Row[], over: Row = {}): Row => ({
  contentKind: 'item',
  sourceDeclared: SOURCE,
  agreementSignoff: SIGNOFF,
  items,
  ...over,
});
