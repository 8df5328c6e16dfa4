import type { WindowCode } from '../queries/catalogTypes';

/** Where a blueprint cell is stored: the spec's `source` values. */
export const BLUEPRINT_SCOPES = ['global', 'org', 'school'] as const;
export type BlueprintScope = (typeof BLUEPRINT_SCOPES)[number];

/** A stored cell's kind; a cell nobody stored resolves to `unset`. */
export const STORED_KINDS = ['measures', 'skills', 'not_screened'] as const;
export type StoredKind = (typeof STORED_KINDS)[number];
export const CELL_KINDS = [...STORED_KINDS, 'unset'] as const;
export type CellKind = (typeof CELL_KINDS)[number];

/** The 422 reasons of a refused cell, in the order the checks run (docs/diagnostic-blueprint.md). */
export const BLUEPRINT_REFUSALS = [
  'catalog_gap',
  'duplicate_measure',
  'measure_not_in_grade',
  'carrier_conflict',
  'no_digital_measure',
  'provisional_not_publishable_globally',
  'provisional_scoring_table',
  'no_operational_form',
  'duplicate_sub_skill',
  'sub_skill_not_in_grade',
] as const;
export type BlueprintRefusal = (typeof BLUEPRINT_REFUSALS)[number];

/** `invalid_cell` only on a read: the stored cell fails today's checks (catalog or forms changed since). */
export const MEASURE_WARNING_CODES = [
  'no_operational_form',
  'thin_pool',
  'provisional_scoring_table',
  'legacy_cell',
  'invalid_cell',
] as const;
export type MeasureWarningCode = (typeof MEASURE_WARNING_CODES)[number];

export interface MeasureWarning {
  code: MeasureWarningCode;
  /** The measure warned about; null for a warning about the whole cell. */
  measureCode: string | null;
}

/** Which cell: scope (organization null = global; school needs its organization), grade and window. */
export interface CellAddress {
  organizationId: string | null;
  schoolId: string | null;
  grade: number;
  window: WindowCode;
}

export const scopeOf = (address: { organizationId: string | null; schoolId: string | null }): BlueprintScope =>
  address.schoolId !== null ? 'school' : address.organizationId !== null ? 'org' : 'global';

/** A cell as stored at one scope. */
export interface StoredCell {
  kind: StoredKind;
  measures: string[];
  subSkillIds: string[];
  acknowledgeProvisional: boolean;
  revision: number;
  updatedAt: string;
  updatedBy: number | null;
}

/** The cell that applies at a scope: the most specific stored one (school, then org, then global). */
export interface ResolvedCell {
  source: BlueprintScope | null;
  kind: CellKind;
  measures: string[];
  subSkillIds: string[];
  /** Of the source cell; false when unset. */
  acknowledgeProvisional: boolean;
}

/** The body of a write: exactly one of `measures` (empty = not screened) or `subSkillIds` (legacy). */
export type CellContent =
  | { measures: string[]; subSkillIds?: undefined }
  | { subSkillIds: string[]; measures?: undefined };

export interface CellProposal {
  content: CellContent;
  strict?: boolean;
  acknowledgeProvisional?: boolean;
  /** 412 `stale` when given and the stored cell's revision differs (or nothing is stored). */
  ifRevision?: number;
}
