import type { AnySql } from '@qiraa/db';
import {
  type BlueprintScope,
  type CellAddress,
  type CellKind,
  type MeasureWarning,
  scopeOf,
} from '../engine/blueprintTypes';
import { resolvedCellWarnings } from '../engine/resolvedCellWarnings';
import { WINDOWS, type WindowCode } from './catalogTypes';
import { loadCatalog } from './loadCatalog';
import { operationalFormsFor } from './operationalForms';
import { mostSpecific } from './resolveBlueprintCell';
import { type StoredCellRow, storedCellsAlong } from './storedCells';

export interface ResolvedView {
  source: BlueprintScope | null;
  kind: CellKind;
  measures: string[];
  subSkillIds: string[];
}

export interface BlueprintCellView {
  grade: number;
  cycle: WindowCode;
  scope: BlueprintScope;
  stored: Omit<StoredCellRow, 'scope' | 'grade' | 'window'> | null;
  resolved: ResolvedView;
  measureWarnings: MeasureWarning[];
}

const storedView = (c: StoredCellRow): BlueprintCellView['stored'] => ({
  kind: c.kind,
  measures: c.measures,
  subSkillIds: c.subSkillIds,
  acknowledgeProvisional: c.acknowledgeProvisional,
  revision: c.revision,
  updatedAt: c.updatedAt,
  updatedBy: c.updatedBy,
});

/**
 * One cell as an administrator sees it at a scope: what that scope stores, what applies there (the most
 * specific stored cell up the chain) and the warnings about what applies, against the forms the scope's
 * organization is served from.
 */
export async function blueprintCellView(sql: AnySql, address: CellAddress): Promise<BlueprintCellView> {
  const catalog = await loadCatalog(sql);
  const scope = scopeOf(address);
  const cells = await storedCellsAlong(sql, address);
  const resolved = mostSpecific(cells);
  const forms = await operationalFormsFor(sql, address);
  const stored = cells.find((c) => c.scope === scope);
  return {
    grade: address.grade,
    cycle: address.window,
    scope,
    stored: stored ? storedView(stored) : null,
    resolved: {
      source: resolved.source,
      kind: resolved.kind,
      measures: resolved.measures,
      subSkillIds: resolved.subSkillIds,
    },
    measureWarnings: resolvedCellWarnings(catalog, address.grade, resolved, forms).measureWarnings,
  };
}

export interface BlueprintGrid {
  scope: BlueprintScope;
  organizationId: string | null;
  schoolId: string | null;
  cells: { grade: number; cycle: WindowCode; resolved: ResolvedView; storedScopes: BlueprintScope[] }[];
}

/**
 * The whole blueprint at a scope: every grade × window, what applies and which scopes of the chain store a
 * cell for it (so an administrator sees where an override sits before changing or deleting it).
 */
export async function blueprintGrid(
  sql: AnySql,
  scopeAddress: { organizationId: string | null; schoolId: string | null },
): Promise<BlueprintGrid> {
  const catalog = await loadCatalog(sql);
  const all = await storedCellsAlong(sql, scopeAddress);
  const order: BlueprintScope[] = ['global', 'org', 'school'];
  const cells = catalog.grades.flatMap(({ grade }) =>
    WINDOWS.map((cycle) => {
      const here = all.filter((c) => c.grade === grade && c.window === cycle);
      const resolved = mostSpecific(here);
      return {
        grade,
        cycle,
        resolved: {
          source: resolved.source,
          kind: resolved.kind,
          measures: resolved.measures,
          subSkillIds: resolved.subSkillIds,
        },
        storedScopes: order.filter((s) => here.some((c) => c.scope === s)),
      };
    }),
  );
  return { scope: scopeOf(scopeAddress), ...scopeAddress, cells };
}
