import type { AnySql } from '@qiraa/db';
import type { LanguageSafetyFilter } from '@qiraa/language-safety';
import type { FormProblems } from '../engine/formProblems';
import type { RejectReason } from '../engine/rejectReasons';
import type { Catalog, ContentKind } from '../queries/catalogTypes';
import type { SourceDeclared } from '../schemas/importBody';

export type ImportEntity = 'passage' | 'item' | 'scaffold_prompt' | 'word_list';

/** One line of the batch report, decided before anything is written. */
export interface PlannedRow {
  entity: ImportEntity;
  rowIndex: number;
  externalId: string;
  /** The stored row: a new version, or the unchanged one it equals; null when rejected. */
  id: string | null;
  /** An item's passage (a passage row's own id is `id`). */
  passageId: string | null;
  rejectReason: RejectReason | null;
  unchanged: boolean;
}

/** Everything a planner needs, read once per import. */
export interface PlanContext {
  tx: AnySql;
  kind: ContentKind;
  organizationId: string | null;
  batchId: string;
  createdBy: number | null;
  catalog: Catalog;
  filter: LanguageSafetyFilter;
  sourceDeclared: SourceDeclared | null;
}

/** A row to insert: column name → value (jsonb values already wrapped with tx.json). */
export type Insert = Record<string, unknown>;

export interface ImportPlan {
  rows: PlannedRow[];
  passages: Insert[];
  form: Insert | null;
  items: Insert[];
  prompts: Insert[];
  wordLists: Insert[];
  formProblems: FormProblems | null;
  screeningFormId: string | null;
  formRejected: boolean | null;
}

export const rejected = (
  entity: ImportEntity,
  rowIndex: number,
  externalId: string,
  rejectReason: RejectReason,
): PlannedRow => ({ entity, rowIndex, externalId, id: null, passageId: null, rejectReason, unchanged: false });

/** The report line of a stored row: a new version, or the unchanged stored one it equals. */
export const accepted = (
  entity: ImportEntity,
  rowIndex: number,
  externalId: string,
  id: string,
  unchanged: boolean,
  passageId: string | null = null,
): PlannedRow => ({ entity, rowIndex, externalId, id, passageId, rejectReason: null, unchanged });
