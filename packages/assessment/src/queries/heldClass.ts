import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { type Caller, classPlacement, holds, inOrganizationOr404 } from '@qiraa/identity';

export interface PageClass {
  id: string;
  schoolId: string;
  organizationId: string;
  grade: number;
  academicYear: string;
}

/**
 * The class a teacher page or void names: 404 when it is missing or another organization's (tenant rule),
 * and 404 too for a teacher who does not hold it (spec: "404 for a class not held"). `staffMay` lets
 * organization staff (MANAGE_ORG, RUN_BACKOFFICE) through without holding it.
 */
export async function heldClassOr404(
  sql: AnySql,
  caller: Caller,
  classId: string,
  staffMay: boolean,
): Promise<PageClass> {
  const row = await classPlacement(sql, classId, caller.userId);
  inOrganizationOr404(caller, row?.organizationId, 'class');
  const { teaches: held, id, schoolId, organizationId, grade, academicYear } = row!;
  const cls: PageClass = { id, schoolId, organizationId, grade, academicYear };
  if (held || (staffMay && holds(caller, 'MANAGE_ORG', 'RUN_BACKOFFICE'))) return cls;
  throw notFound('class');
}
