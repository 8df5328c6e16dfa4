import type { AnySql } from '@qiraa/db';
import {
  type BlueprintScope,
  type CellAddress,
  type StoredCell,
  type StoredKind,
  scopeOf,
} from '../engine/blueprintTypes';
import type { WindowCode } from './catalogTypes';

export interface StoredCellRow extends StoredCell {
  scope: BlueprintScope;
  grade: number;
  window: WindowCode;
}

interface Row {
  organization_id: string | null;
  school_id: string | null;
  grade: number;
  window_code: WindowCode;
  kind: StoredKind;
  measures: string[];
  sub_skill_ids: string[];
  acknowledged_provisional: boolean;
  revision: number;
  updated_at: Date;
  updated_by: bigint | null;
}

const toStored = (r: Row): StoredCellRow => ({
  scope: scopeOf({ organizationId: r.organization_id, schoolId: r.school_id }),
  grade: r.grade,
  window: r.window_code,
  kind: r.kind,
  measures: [...r.measures],
  subSkillIds: [...r.sub_skill_ids],
  acknowledgeProvisional: r.acknowledged_provisional,
  revision: r.revision,
  updatedAt: r.updated_at.toISOString(),
  updatedBy: r.updated_by === null ? null : Number(r.updated_by),
});

/**
 * Every stored cell along one scope chain (global; the organization's; the school's), optionally of one grade
 * and window. Scopes below the address are not read: a school's cell never applies at its organization.
 */
export async function storedCellsAlong(
  sql: AnySql,
  address: { organizationId: string | null; schoolId: string | null; grade?: number; window?: WindowCode },
): Promise<StoredCellRow[]> {
  const rows = await sql<Row[]>`
    select organization_id, school_id, grade, window_code, kind, measures, sub_skill_ids, acknowledged_provisional,
           revision, updated_at, updated_by
    from content_diagnostic_blueprint_cells
    where ((organization_id is null and school_id is null)
           or (organization_id = ${address.organizationId ?? ''} and school_id is null)
           or (organization_id = ${address.organizationId ?? ''} and school_id = ${address.schoolId ?? ''}))
      ${address.grade === undefined ? sql`` : sql`and grade = ${address.grade}`}
      ${address.window === undefined ? sql`` : sql`and window_code = ${address.window}`}`;
  return rows.map(toStored);
}

/** The cell stored at exactly this address, or null. */
export async function storedCellAt(sql: AnySql, address: CellAddress): Promise<StoredCellRow | null> {
  const scope = scopeOf(address);
  const cells = await storedCellsAlong(sql, address);
  return cells.find((c) => c.scope === scope) ?? null;
}
