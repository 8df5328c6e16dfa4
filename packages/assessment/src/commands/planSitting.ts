import {
  breakBeforeFlags,
  currentItemBankPin,
  type ItemRowDb,
  loadCatalog,
  operationalFormsFor,
  type ResolvedCell,
  resolveBlueprintCell,
  type SectionKey,
  screeningFormItems,
} from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';
import type { PlannedQuestion, SittingPins, SittingSection } from '../events/sittingTypes';

export interface SittingPlan {
  cell: ResolvedCell;
  measures: string[];
  plan: PlannedQuestion[];
  sections: SittingSection[];
  pins: Omit<SittingPins, 'cutVersions'>;
}

export type PlanOutcome =
  | { kind: 'planned'; cell: ResolvedCell; plan: SittingPlan }
  /** The cell is `not_screened` or `unset`: no digital sitting in this grade and window. */
  | { kind: 'not_screened'; cell: ResolvedCell }
  /** The cell's digital measures have no operational form (spec: `firstItemId: null, reason: no_screening_form`). */
  | { kind: 'no_screening_form'; cell: ResolvedCell };

export interface PlanInput {
  organizationId: string;
  schoolId: string;
  grade: number;
  window: ScreeningWindow;
  /** A skill cell's sub-skills to sit (the whole cell's when null). */
  subSkillIds: readonly string[] | null;
}

/**
 * What a sitting starting now is served: the blueprint cell of the school, grade and window; for each of the
 * cell's digital measures (in cell order) the questions of the first operational form that has any, in form
 * position order; for a legacy skill cell, the questions of those forms on the cell's (or the requested)
 * sub-skills. Pinned on `SittingStarted`, so a later position move or form change never alters a sitting.
 */
export async function planSitting(sql: Sql, input: PlanInput): Promise<PlanOutcome> {
  const catalog = await loadCatalog(sql);
  const cell = await resolveBlueprintCell(sql, {
    organizationId: input.organizationId,
    schoolId: input.schoolId,
    grade: input.grade,
    window: input.window,
  });
  if (cell.kind === 'not_screened' || cell.kind === 'unset') return { kind: 'not_screened', cell };

  const digital = catalog.measures.filter(
    (m) =>
      m.mode === 'digital' &&
      m.gradeMin <= input.grade &&
      input.grade <= m.gradeMax &&
      (cell.kind === 'skills' || cell.measures.includes(m.measureCode)),
  );
  // Cell order for a measure cell; catalog order for a skill cell.
  if (cell.kind === 'measures')
    digital.sort((a, b) => cell.measures.indexOf(a.measureCode) - cell.measures.indexOf(b.measureCode));
  const subSkills = cell.kind === 'skills' ? (input.subSkillIds ?? cell.subSkillIds) : null;

  const forms = await operationalFormsFor(sql, {
    organizationId: input.organizationId,
    grade: input.grade,
    window: input.window,
  });
  const formIds = forms.map((f) => f.id);
  const rows =
    formIds.length > 0 && digital.length > 0
      ? await screeningFormItems(
          sql,
          formIds,
          digital.map((m) => m.measureCode),
          subSkills,
        )
      : [];

  const served: { row: ItemRowDb; sectionKey: SectionKey }[] = [];
  const usedForms = new Set<string>();
  const measures: string[] = [];
  for (const m of digital) {
    const form = forms.find((f) => rows.some((r) => r.screening_form_id === f.id && r.measure_code === m.measureCode));
    if (!form) continue;
    usedForms.add(form.id);
    measures.push(m.measureCode);
    for (const row of rows.filter((r) => r.screening_form_id === form.id && r.measure_code === m.measureCode)) {
      served.push({ row, sectionKey: m.sectionKey as SectionKey });
    }
  }
  if (served.length === 0) return { kind: 'no_screening_form', cell };

  const breaks = breakBeforeFlags(
    input.grade,
    served.map(({ row }) => row.passage_id),
  );
  const plan = served.map(
    ({ row, sectionKey }, i): PlannedQuestion => ({
      itemId: row.id,
      itemVersion: row.version,
      measureCode: row.measure_code as string,
      sectionKey,
      formId: row.screening_form_id as string,
      formPosition: row.form_position as number,
      passageId: row.passage_id,
      itemPattern: row.item_pattern,
      subSkillId: row.sub_skill_id,
      breakBefore: breaks[i] ?? false,
    }),
  );
  const sections: SittingSection[] = [];
  for (const q of plan) {
    const last = sections[sections.length - 1];
    if (last && last.key === q.sectionKey) last.total++;
    else sections.push({ key: q.sectionKey, total: 1 });
  }
  return {
    kind: 'planned',
    cell,
    plan: {
      cell,
      measures,
      plan,
      sections,
      pins: {
        itemBankPinId: await currentItemBankPin(sql),
        forms: forms
          .filter((f) => usedForms.has(f.id))
          .map((f) => ({ id: f.id, externalId: f.externalId, version: f.version })),
        catalogVersion: catalog.version,
        cell: { source: cell.source, kind: cell.kind, measures: cell.measures, subSkillIds: cell.subSkillIds },
      },
    },
  };
}
