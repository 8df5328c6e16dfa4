import type { ErrorDetail } from '@qiraa/http-kit';
import { type Catalog, type CatalogMeasure, inGradeRange } from '../queries/catalogTypes';
import type { BlueprintRefusal, BlueprintScope, CellContent, MeasureWarning, StoredKind } from './blueprintTypes';

/** How many questions one operational form holds per measure. */
export interface FormCoverage {
  id: string;
  itemCounts: Readonly<Record<string, number>>;
}

export interface BlueprintCheckInput {
  grade: number;
  /** The scope the cell is stored at (a global cell may not carry a provisional measure). */
  scope: BlueprintScope;
  content: CellContent;
  /** A digital measure no visible operational form holds is a refusal instead of a warning. */
  strict: boolean;
  acknowledgeProvisional: boolean;
  /** Operational forms visible at the scope for the grade and window; the first is the one served. */
  forms: readonly FormCoverage[];
}

export type BlueprintCheck =
  | { ok: true; kind: StoredKind; measures: string[]; subSkillIds: string[]; measureWarnings: MeasureWarning[] }
  | { ok: false; reason: BlueprintRefusal; details: ErrorDetail[] };

type CatalogLookups = Pick<Catalog, 'measureByCode' | 'subSkillById'>;

const refuse = (reason: BlueprintRefusal, details: ErrorDetail[]): BlueprintCheck => ({ ok: false, reason, details });

/** Indexes of entries that appeared earlier in the list. */
const repeatedAt = (values: readonly string[]) => values.flatMap((v, i) => (values.indexOf(v) < i ? [i] : []));

/**
 * The diagnostic blueprint rules for one proposed cell, in a fixed order so the same body always gets the
 * same reason (the first failing check wins; its details name every offending entry). Pure: the caller
 * reads the catalog and the forms.
 */
export function validateBlueprintCell(catalog: CatalogLookups, input: BlueprintCheckInput): BlueprintCheck {
  if (input.content.subSkillIds !== undefined)
    return validateSkillCell(catalog, input.grade, input.content.subSkillIds);
  const codes = input.content.measures;
  // An empty list is the explicit "this grade is not screened in this window".
  if (codes.length === 0) return { ok: true, kind: 'not_screened', measures: [], subSkillIds: [], measureWarnings: [] };
  const field = (i: number) => `measures[${i}]`;

  const unknown = codes.flatMap((c, i) => (catalog.measureByCode.has(c) ? [] : [i]));
  if (unknown.length > 0)
    return refuse(
      'catalog_gap',
      unknown.map((i) => ({ field: field(i), issue: 'not a measure of the catalog' })),
    );
  const measures = codes.map((c) => catalog.measureByCode.get(c) as CatalogMeasure);

  const repeated = repeatedAt(codes);
  if (repeated.length > 0)
    return refuse(
      'duplicate_measure',
      repeated.map((i) => ({ field: field(i), issue: 'measure listed twice' })),
    );

  const outOfGrade = measures.flatMap((m, i) => (inGradeRange(m, input.grade) ? [] : [i]));
  if (outOfGrade.length > 0)
    return refuse(
      'measure_not_in_grade',
      outOfGrade.map((i) => ({ field: field(i), issue: `measure is not given in grade ${input.grade}` })),
    );

  // Each oral teacher-page cell is filled by one measure; digital measures share the digital sitting.
  const oralCells: string[] = measures.map((m) => (m.mode === 'oral' ? m.teacherCell : ''));
  const carrierClash = oralCells.flatMap((cell, i) => (cell !== '' && oralCells.indexOf(cell) < i ? [i] : []));
  if (carrierClash.length > 0)
    return refuse(
      'carrier_conflict',
      carrierClash.map((i) => ({
        field: field(i),
        issue: `teacher-page cell ${oralCells[i]} is already filled by ${codes[oralCells.indexOf(oralCells[i] ?? '')]}`,
      })),
    );

  if (!measures.some((m) => m.mode === 'digital'))
    return refuse('no_digital_measure', [{ field: 'measures', issue: 'the cell needs at least one digital measure' }]);

  const provisional = measures.flatMap((m, i) => (m.scoringStatus === 'provisional' ? [i] : []));
  const provisionalDetails = (issue: string) => provisional.map((i) => ({ field: field(i), issue }));
  // A global cell reaches every organization; a scoring table that is not normed is never imposed on them.
  if (provisional.length > 0 && input.scope === 'global')
    return refuse(
      'provisional_not_publishable_globally',
      provisionalDetails('provisional scoring table: set it per organization or school'),
    );
  if (provisional.length > 0 && !input.acknowledgeProvisional)
    return refuse(
      'provisional_scoring_table',
      provisionalDetails('provisional scoring table: send acknowledgeProvisional: true'),
    );

  const held = (code: string) => input.forms.some((f) => (f.itemCounts[code] ?? 0) > 0);
  const unheld = measures.flatMap((m, i) => (m.mode === 'digital' && !held(m.measureCode) ? [i] : []));
  if (unheld.length > 0 && input.strict)
    return refuse(
      'no_operational_form',
      unheld.map((i) => ({
        field: field(i),
        issue: 'no operational screening form of this grade and window holds it',
      })),
    );

  const served = input.forms[0];
  const measureWarnings: MeasureWarning[] = [];
  for (const m of measures) {
    if (m.mode === 'digital' && !held(m.measureCode)) {
      measureWarnings.push({ code: 'no_operational_form', measureCode: m.measureCode });
    } else if (m.mode === 'digital' && served && (served.itemCounts[m.measureCode] ?? 0) < (m.formItemCount ?? 0)) {
      measureWarnings.push({ code: 'thin_pool', measureCode: m.measureCode });
    }
    if (m.scoringStatus === 'provisional') {
      measureWarnings.push({ code: 'provisional_scoring_table', measureCode: m.measureCode });
    }
  }
  return { ok: true, kind: 'measures', measures: [...codes], subSkillIds: [], measureWarnings };
}

/** A legacy sub-skill cell: known ids, once each, all taught in the grade. Always warned as legacy. */
function validateSkillCell(catalog: CatalogLookups, grade: number, ids: readonly string[]): BlueprintCheck {
  // The route refuses an empty list by schema; a direct caller's empty list means "not screened", like measures.
  if (ids.length === 0) return { ok: true, kind: 'not_screened', measures: [], subSkillIds: [], measureWarnings: [] };
  const field = (i: number) => `subSkillIds[${i}]`;
  const unknown = ids.flatMap((id, i) => (catalog.subSkillById.has(id) ? [] : [i]));
  if (unknown.length > 0)
    return refuse(
      'catalog_gap',
      unknown.map((i) => ({ field: field(i), issue: 'not a sub-skill of the catalog' })),
    );
  const repeated = repeatedAt(ids);
  if (repeated.length > 0)
    return refuse(
      'duplicate_sub_skill',
      repeated.map((i) => ({ field: field(i), issue: 'sub-skill listed twice' })),
    );
  const outOfGrade = ids.flatMap((id, i) => {
    const subSkill = catalog.subSkillById.get(id);
    return subSkill && inGradeRange(subSkill, grade) ? [] : [i];
  });
  if (outOfGrade.length > 0)
    return refuse(
      'sub_skill_not_in_grade',
      outOfGrade.map((i) => ({ field: field(i), issue: `sub-skill is not taught in grade ${grade}` })),
    );
  return {
    ok: true,
    kind: 'skills',
    measures: [],
    subSkillIds: [...ids],
    measureWarnings: [{ code: 'legacy_cell', measureCode: null }],
  };
}
