import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, classPlacement, holds, inOrganizationOr404 } from '@qiraa/identity';

export interface ClusterClass {
  classId: string;
  organizationId: string;
  schoolId: string;
}

/**
 * The class a recompute names: another organization's or an unknown one is 404 (the route's target already
 * said so), then a teacher who does not hold it is 403; RUN_BACKOFFICE reaches every class of its scope.
 */
export async function classForRecompute(sql: AnySql, caller: Caller, classId: string): Promise<ClusterClass> {
  const row = await classPlacement(sql, classId, caller.userId);
  inOrganizationOr404(caller, row?.organizationId, 'class');
  if (!row!.teaches && !holds(caller, 'RUN_BACKOFFICE')) {
    throw permissionDenied('the class teacher (or RUN_BACKOFFICE) recomputes a class’s clusters');
  }
  return { classId, organizationId: row!.organizationId, schoolId: row!.schoolId };
}
