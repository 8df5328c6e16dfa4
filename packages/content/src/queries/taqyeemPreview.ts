import type { AnySql } from '@qiraa/db';
import type { BlueprintScope, CellAddress, CellKind } from '../engine/blueprintTypes';
import { breakBeforeFlags } from '../engine/breakBefore';
import { resolvedCellWarnings } from '../engine/resolvedCellWarnings';
import { type CatalogMeasure, type SectionKey, TEACHER_CELLS, type TeacherCell } from './catalogTypes';
import { etagOf, type ItemRowDb, itemColumns, type StudentItem, studentItemOf } from './itemViews';
import { loadCatalog } from './loadCatalog';
import { operationalFormsFor } from './operationalForms';
import { resolveBlueprintCell } from './resolveBlueprintCell';

/** The preview's closed warning set, in the spec's order (the answer lists them in this order). */
export const PREVIEW_WARNINGS = [
  'no_operational_form',
  'invalid_cell',
  'provisional_scoring_table',
  'legacy_cell',
  'thin_pool',
  'alternate_form',
  'not_screened',
  'unset',
] as const;
export type PreviewWarning = (typeof PREVIEW_WARNINGS)[number];

export interface TaqyeemPreview {
  cell: { source: BlueprintScope | null; kind: CellKind; measures: string[]; subSkillIds: string[] };
  sessionPlan: {
    sections: { key: SectionKey; total: number }[];
    minutesPerStudent: Record<TeacherCell, number>;
    totalMinutes: number;
  };
  form: { id: string; externalId: string; version: number; status: 'operational' } | null;
  questions: {
    student: StudentItem;
    authoring: {
      measureCode: string;
      formPosition: number;
      itemPattern: string;
      subSkillId: string;
      correctOptionKey: string;
      etag: string;
    };
    meta: { sectionKey: SectionKey; breakBefore: boolean };
  }[];
  passages: { id: string; titleAr: string; bodyAr: string; wordCount: number }[];
  measures: {
    measureCode: string;
    labelAr: string;
    mode: 'digital' | 'oral';
    teacherCell: TeacherCell;
    expected: number | null;
    count: number | null;
    scoringStatus: 'normed' | 'provisional';
  }[];
  warnings: PreviewWarning[];
}

/**
 * What a sitting of this school (or organization) in this grade and window would look like today: the cell
 * that applies, the form it would be served from (the organization's newest operational form before a
 * global one) and, for a measures cell, the questions of its digital measures in cell order and position
 * order. Questions show the student projection beside an authoring block; reads only.
 */
export async function taqyeemPreview(sql: AnySql, address: CellAddress): Promise<TaqyeemPreview> {
  const catalog = await loadCatalog(sql);
  const cell = await resolveBlueprintCell(sql, address);
  const forms = await operationalFormsFor(sql, address);
  const form = forms[0] ?? null;
  const cellMeasures =
    cell.kind === 'measures'
      ? cell.measures.flatMap((code) => {
          const m = catalog.measureByCode.get(code);
          return m ? [m] : [];
        })
      : [];
  const digital = cellMeasures.filter((m) => m.mode === 'digital');

  const rows =
    form && digital.length > 0
      ? await sql<ItemRowDb[]>`
          select ${itemColumns(sql)} from content_items
          where screening_form_id = ${form.id} and measure_code = any(${sql.array(
            digital.map((m) => m.measureCode),
            1009,
          )}::text[])
          order by form_position`
      : [];
  const served = digital.flatMap((m) => rows.filter((r) => r.measure_code === m.measureCode).map((r) => ({ m, r })));
  const breaks = breakBeforeFlags(
    address.grade,
    served.map(({ r }) => r.passage_id),
  );
  const questions = served.map(({ m, r }, i) => ({
    student: studentItemOf(r),
    authoring: {
      measureCode: m.measureCode,
      formPosition: r.form_position as number,
      itemPattern: r.item_pattern,
      subSkillId: r.sub_skill_id,
      correctOptionKey: r.correct_option_key,
      etag: etagOf(r.revision),
    },
    meta: { sectionKey: m.sectionKey as SectionKey, breakBefore: breaks[i] ?? false },
  }));

  const passageIds = [...new Set(served.flatMap(({ r }) => (r.passage_id ? [r.passage_id] : [])))];
  const passageRows = passageIds.length
    ? await sql<{ id: string; title_ar: string; body_ar: string; word_count: number }[]>`
        select id, title_ar, body_ar, word_count from content_passages
        where id = any(${sql.array(passageIds, 1009)}::text[])`
    : [];
  const passages = passageIds.flatMap((id) => {
    const p = passageRows.find((row) => row.id === id);
    return p ? [{ id: p.id, titleAr: p.title_ar, bodyAr: p.body_ar, wordCount: p.word_count }] : [];
  });

  const countOf = (m: CatalogMeasure) => (m.mode === 'digital' ? (form?.itemCounts[m.measureCode] ?? 0) : null);
  const measures = cellMeasures.map((m) => ({
    measureCode: m.measureCode,
    labelAr: m.labelAr,
    mode: m.mode,
    teacherCell: m.teacherCell,
    expected: m.formItemCount,
    count: countOf(m),
    scoringStatus: m.scoringStatus,
  }));

  const minutesPerStudent = Object.fromEntries(
    TEACHER_CELLS.map((c) => [
      c,
      cellMeasures.filter((m) => m.teacherCell === c).reduce((sum, m) => sum + m.minutesPerStudent, 0),
    ]),
  ) as Record<TeacherCell, number>;

  const raised = new Set<PreviewWarning>();
  if (cell.kind === 'unset') raised.add('unset');
  if (cell.kind === 'not_screened') raised.add('not_screened');
  if (cell.kind === 'skills') raised.add('legacy_cell');
  if (resolvedCellWarnings(catalog, address.grade, cell, forms).invalid) raised.add('invalid_cell');
  if (forms.length > 1) raised.add('alternate_form');
  for (const m of digital) {
    if (!forms.some((f) => (f.itemCounts[m.measureCode] ?? 0) > 0)) raised.add('no_operational_form');
    // Without any form the sitting has no questions at all: that is no_operational_form, not a thin pool.
    if (form && (countOf(m) ?? 0) < (m.formItemCount ?? 0)) raised.add('thin_pool');
  }
  if (cellMeasures.some((m) => m.scoringStatus === 'provisional')) raised.add('provisional_scoring_table');

  return {
    cell: { source: cell.source, kind: cell.kind, measures: cell.measures, subSkillIds: cell.subSkillIds },
    sessionPlan: {
      sections: digital.flatMap((m) => {
        const total = served.filter((q) => q.m === m).length;
        return total > 0 ? [{ key: m.sectionKey as SectionKey, total }] : [];
      }),
      minutesPerStudent,
      totalMinutes: Object.values(minutesPerStudent).reduce((a, b) => a + b, 0),
    },
    form: form ? { id: form.id, externalId: form.externalId, version: form.version, status: form.status } : null,
    questions,
    passages,
    measures,
    warnings: PREVIEW_WARNINGS.filter((w) => raised.has(w)),
  };
}
