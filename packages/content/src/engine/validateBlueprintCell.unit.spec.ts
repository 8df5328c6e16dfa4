import { describe, expect, it } from 'vitest';
import type { CatalogMeasure, CatalogSubSkill } from '../queries/catalogTypes';
import { type BlueprintCheckInput, type FormCoverage, validateBlueprintCell } from './validateBlueprintCell';

// The 2026.1 measures (migrations/0010_content_catalog.sql) the rules depend on.
const m = (
  measureCode: string,
  gradeMin: number,
  gradeMax: number,
  mode: 'digital' | 'oral',
  teacherCell: CatalogMeasure['teacherCell'],
  formItemCount: number | null,
  scoringStatus: 'normed' | 'provisional' = 'normed',
): CatalogMeasure => ({
  measureCode,
  labelAr: measureCode,
  skillId: 'x',
  gradeMin,
  gradeMax,
  mode,
  teacherCell,
  sectionKey: mode === 'digital' ? 'text1' : null,
  formItemCount,
  minutesPerStudent: 3,
  scoringStatus,
});
const measures = [
  m('word_recognition', 1, 2, 'digital', 'digital', 4),
  m('text1_comprehension', 1, 4, 'digital', 'digital', 3),
  m('text2_comprehension', 3, 4, 'digital', 'digital', 3),
  m('spelling_choice', 2, 4, 'digital', 'digital', 3),
  m('root_identification', 3, 4, 'digital', 'digital', 3, 'provisional'),
  m('orf_text', 1, 4, 'oral', 'oral_text', null),
  m('orf_short_text', 1, 2, 'oral', 'oral_text', null),
  m('familiar_words_list', 1, 4, 'oral', 'oral_familiar_words', null),
  m('pseudowords_list', 1, 4, 'oral', 'oral_pseudowords', null),
];
const sub = (id: string, gradeMin: number, gradeMax: number): CatalogSubSkill => ({
  id,
  skillId: 'x',
  labelAr: id,
  gradeMin,
  gradeMax,
});
const subSkills = [sub('ls_short_vowels', 1, 2), sub('ic_inference', 3, 4), sub('fw_common_words', 1, 4)];
const catalog = {
  measureByCode: new Map(measures.map((x) => [x.measureCode, x])),
  subSkillById: new Map(subSkills.map((x) => [x.id, x])),
};

const fullForm = { id: 'frm_full', itemCounts: { text1_comprehension: 3, spelling_choice: 3, text2_comprehension: 3 } };
const base: BlueprintCheckInput = {
  grade: 3,
  scope: 'org',
  content: { measures: ['text1_comprehension', 'orf_text'] },
  strict: false,
  acknowledgeProvisional: false,
  forms: [fullForm],
};
const run = (patch: Partial<BlueprintCheckInput>) => validateBlueprintCell(catalog, { ...base, ...patch });
const reasonOf = (patch: Partial<BlueprintCheckInput>) => {
  const r = run(patch);
  return r.ok ? 'ok' : r.reason;
};

describe('validateBlueprintCell: measure cells', () => {
  it('accepts a digital and an oral measure with no warnings when the form is full', () => {
    expect(run({})).toEqual({
      ok: true,
      kind: 'measures',
      measures: ['text1_comprehension', 'orf_text'],
      subSkillIds: [],
      measureWarnings: [],
    });
  });

  it('stores an empty list as kind not_screened, without any check', () => {
    expect(run({ content: { measures: [] }, scope: 'global', forms: [] })).toEqual({
      ok: true,
      kind: 'not_screened',
      measures: [],
      subSkillIds: [],
      measureWarnings: [],
    });
  });

  it('catalog_gap names every unknown code', () => {
    const r = run({ content: { measures: ['text1_comprehension', 'nope', 'orf_text', 'nada'] } });
    expect(r).toEqual({
      ok: false,
      reason: 'catalog_gap',
      details: [
        { field: 'measures[1]', issue: 'not a measure of the catalog' },
        { field: 'measures[3]', issue: 'not a measure of the catalog' },
      ],
    });
  });

  it('duplicate_measure names the repeat, not the first', () => {
    const r = run({ content: { measures: ['text1_comprehension', 'orf_text', 'text1_comprehension'] } });
    expect(r.ok ? null : [r.reason, r.details.map((d) => d.field)]).toEqual(['duplicate_measure', ['measures[2]']]);
  });

  it('measure_not_in_grade: word_recognition is grades 1-2', () => {
    expect(reasonOf({ content: { measures: ['word_recognition'] } })).toBe('measure_not_in_grade');
    expect(reasonOf({ grade: 2, content: { measures: ['word_recognition'] }, forms: [] })).toBe('ok');
  });

  it('carrier_conflict: orf_text and orf_short_text both fill oral_text', () => {
    const r = run({ grade: 2, content: { measures: ['text1_comprehension', 'orf_text', 'orf_short_text'] } });
    expect(r.ok ? null : [r.reason, r.details.map((d) => d.field)]).toEqual(['carrier_conflict', ['measures[2]']]);
    // Several digital measures share the digital sitting: no conflict.
    expect(reasonOf({ content: { measures: ['text1_comprehension', 'text2_comprehension'] } })).toBe('ok');
  });

  it('no_digital_measure: oral measures only', () => {
    expect(reasonOf({ content: { measures: ['orf_text', 'familiar_words_list'] } })).toBe('no_digital_measure');
  });

  it('provisional measures: refused globally even acknowledged, refused unacknowledged, warned when acknowledged', () => {
    const content = { measures: ['text1_comprehension', 'root_identification'] };
    const form = { id: 'f', itemCounts: { text1_comprehension: 3, root_identification: 3 } };
    expect(reasonOf({ content, scope: 'global', acknowledgeProvisional: true, forms: [form] })).toBe(
      'provisional_not_publishable_globally',
    );
    expect(reasonOf({ content, forms: [form] })).toBe('provisional_scoring_table');
    expect(run({ content, scope: 'school', acknowledgeProvisional: true, forms: [form] })).toMatchObject({
      ok: true,
      measureWarnings: [{ code: 'provisional_scoring_table', measureCode: 'root_identification' }],
    });
  });

  it('no_operational_form: refused with strict, a warning without', () => {
    const content = { measures: ['text1_comprehension', 'spelling_choice'] };
    const forms = [{ id: 'f', itemCounts: { text1_comprehension: 3 } }];
    const strict = run({ content, forms, strict: true });
    expect(strict).toEqual({
      ok: false,
      reason: 'no_operational_form',
      details: [{ field: 'measures[1]', issue: 'no operational screening form of this grade and window holds it' }],
    });
    expect(run({ content, forms })).toMatchObject({
      ok: true,
      measureWarnings: [{ code: 'no_operational_form', measureCode: 'spelling_choice' }],
    });
  });

  it('a measure held only by a second form warns thin_pool on the served (first) form', () => {
    const forms: FormCoverage[] = [
      { id: 'served', itemCounts: { text1_comprehension: 2 } },
      { id: 'other', itemCounts: { spelling_choice: 3 } },
    ];
    expect(run({ content: { measures: ['text1_comprehension', 'spelling_choice'] }, forms, strict: true })).toEqual({
      ok: true,
      kind: 'measures',
      measures: ['text1_comprehension', 'spelling_choice'],
      subSkillIds: [],
      measureWarnings: [
        { code: 'thin_pool', measureCode: 'text1_comprehension' },
        { code: 'thin_pool', measureCode: 'spelling_choice' },
      ],
    });
  });

  it('checks run in the documented order: the earliest failing check answers', () => {
    // unknown + duplicate + out of grade + no digital: catalog_gap first.
    expect(reasonOf({ content: { measures: ['orf_text', 'orf_text', 'zzz', 'word_recognition'] } })).toBe(
      'catalog_gap',
    );
    // duplicate and out of grade: duplicate first.
    expect(reasonOf({ content: { measures: ['word_recognition', 'word_recognition'] } })).toBe('duplicate_measure');
    // out of grade and carrier conflict (grade 3: orf_short_text is grades 1-2): not in grade first.
    expect(reasonOf({ content: { measures: ['orf_text', 'orf_short_text'] } })).toBe('measure_not_in_grade');
    // carrier conflict and no digital: carrier first.
    expect(reasonOf({ grade: 1, content: { measures: ['orf_text', 'orf_short_text'] } })).toBe('carrier_conflict');
    // provisional + strict without form: the provisional rules come before no_operational_form.
    expect(reasonOf({ content: { measures: ['root_identification'] }, forms: [], strict: true })).toBe(
      'provisional_scoring_table',
    );
  });
});

describe('validateBlueprintCell: legacy sub-skill cells', () => {
  it('accepts known in-grade sub-skills and warns legacy_cell', () => {
    expect(run({ content: { subSkillIds: ['ic_inference', 'fw_common_words'] } })).toEqual({
      ok: true,
      kind: 'skills',
      measures: [],
      subSkillIds: ['ic_inference', 'fw_common_words'],
      measureWarnings: [{ code: 'legacy_cell', measureCode: null }],
    });
  });

  it('refuses catalog_gap, then duplicate_sub_skill, then sub_skill_not_in_grade', () => {
    expect(reasonOf({ content: { subSkillIds: ['ls_short_vowels', 'nope', 'nope'] } })).toBe('catalog_gap');
    expect(reasonOf({ content: { subSkillIds: ['ls_short_vowels', 'ls_short_vowels'] } })).toBe('duplicate_sub_skill');
    expect(run({ content: { subSkillIds: ['fw_common_words', 'ls_short_vowels'] } })).toEqual({
      ok: false,
      reason: 'sub_skill_not_in_grade',
      details: [{ field: 'subSkillIds[1]', issue: 'sub-skill is not taught in grade 3' }],
    });
  });
});
