import type { Catalog, CatalogMeasure, ResolvedCell } from '@qiraa/content';
import { describe, expect, it } from 'vitest';
import { pageBlueprint } from './blueprintStatus';

const measure = (
  measureCode: string,
  teacherCell: CatalogMeasure['teacherCell'],
  minutesPerStudent: number,
  gradeMax = 4,
): CatalogMeasure => ({
  measureCode,
  labelAr: measureCode,
  skillId: 's',
  gradeMin: 1,
  gradeMax,
  mode: teacherCell === 'digital' ? 'digital' : 'oral',
  teacherCell,
  sectionKey: null,
  formItemCount: null,
  minutesPerStudent,
  scoringStatus: 'normed',
});
const measures = [
  measure('words', 'digital', 4, 2),
  measure('text', 'digital', 5),
  measure('orf', 'oral_text', 3),
  measure('pseudo', 'oral_pseudowords', 2),
];
const catalog = {
  version: '2026.1',
  measures,
  measureByCode: new Map(measures.map((m) => [m.measureCode, m])),
} as unknown as Catalog;
const cell = (kind: ResolvedCell['kind'], codes: string[] = []): ResolvedCell => ({
  source: kind === 'unset' ? null : 'org',
  kind,
  measures: codes,
  subSkillIds: kind === 'skills' ? ['x'] : [],
  acknowledgeProvisional: false,
});

describe('pageBlueprint', () => {
  it('ok: the measures’ cells are available, minutes summed per cell', () => {
    const b = pageBlueprint(catalog, 2, cell('measures', ['words', 'text', 'orf']));
    expect(b.status).toBe('ok');
    expect([...b.cells].sort()).toEqual(['digital', 'oral_text']);
    expect(b.minutesPerStudent).toEqual({ digital: 9, oral_text: 3, oral_familiar_words: 0, oral_pseudowords: 0 });
    expect(b.catalogVersion).toBe('2026.1');
  });

  it('catalog_gap: an unknown measure, one out of grade, or no cell at all', () => {
    expect(pageBlueprint(catalog, 2, cell('measures', ['text', 'nope'])).status).toBe('catalog_gap');
    const outOfGrade = pageBlueprint(catalog, 3, cell('measures', ['words', 'orf']));
    expect(outOfGrade.status).toBe('catalog_gap');
    expect([...outOfGrade.cells]).toEqual(['oral_text']);
    expect(pageBlueprint(catalog, 2, cell('unset')).status).toBe('catalog_gap');
    expect(pageBlueprint(catalog, 2, cell('unset')).cells.size).toBe(0);
  });

  it('legacy_skill_cell: the digital sitting only, at the grade’s digital minutes', () => {
    const b = pageBlueprint(catalog, 3, cell('skills'));
    expect(b.status).toBe('legacy_skill_cell');
    expect(b.measures).toEqual([]);
    expect([...b.cells]).toEqual(['digital']);
    expect(b.minutesPerStudent.digital).toBe(5);
  });

  it('not_screened: nothing is available', () => {
    const b = pageBlueprint(catalog, 2, cell('not_screened'));
    expect(b.status).toBe('not_screened');
    expect(b.cells.size).toBe(0);
  });
});
