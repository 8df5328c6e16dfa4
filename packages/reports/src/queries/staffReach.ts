import { STAFF_REACH } from '@qiraa/assessment';
import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, studentReach } from '@qiraa/identity';

/**
 * The reports are staff views with numbers in them: a teacher of one of the child's active classes, the
 * principal of the child's school, the organization's admin and manager, the super-admin (the relations that
 * read the child's oral readings). A parent or the child gets the number-free portal instead: 403, as does a
 * teacher, principal or anyone else of the organization without that relation. The route's target has already
 * answered 404 for another organization's or a missing student.
 */
export async function requireStaffReach(sql: AnySql, caller: Caller, studentId: number): Promise<void> {
  const reached = await studentReach(sql, caller, studentId);
  if (!reached.reach || !STAFF_REACH.includes(reached.reach))
    throw permissionDenied('staff who reach the child read its reports');
}
