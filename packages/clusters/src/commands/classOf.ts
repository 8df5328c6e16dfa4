import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, holds, inOrganizationOr404 } from '@qiraa/identity';

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
  const [row] = await sql<{ organization_id: string; school_id: string; held: boolean }[]>`
    select c.organization_id, c.school_id,
           exists (select 1 from class_teachers t where t.class_id = c.id and t.teacher_user_id = ${caller.userId}) as held
    from classes c where c.id = ${classId}`;
  inOrganizationOr404(caller, row?.organization_id, 'class');
  if (!row!.held && !holds(caller, 'RUN_BACKOFFICE')) {
    throw permissionDenied('the class teacher (or RUN_BACKOFFICE) recomputes a class’s clusters');
  }
  return { classId, organizationId: row!.organization_id, schoolId: row!.school_id };
}
