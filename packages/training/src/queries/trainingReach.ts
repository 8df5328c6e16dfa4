import type { AnySql } from '@qiraa/db';
import { type Caller, type StudentReach, studentReach } from '@qiraa/identity';

/**
 * Whether a teacher owns a support group holding the child: registered by the alerts part (support groups);
 * without one no caller reaches a child through a group.
 */
export type SupportGroupReach = (sql: AnySql, teacherUserId: number, studentId: number) => Promise<boolean>;

let groupReach: SupportGroupReach | null = null;

export function registerSupportGroupReach(reach: SupportGroupReach | null): void {
  groupReach = reach;
}

/** Staff reach of the training views: the child's teacher, a support group's owner, staff organization-wide. */
const STAFF: readonly StudentReach[] = ['super', 'admin', 'teacher', 'principal', 'manager'];

/**
 * The tenant rule first (unknown or another organization's child: 404, from studentReach), then whether the
 * caller reaches the child for the training views; a teacher who does not teach the child may still own a
 * support group holding it.
 */
export async function trainingReach(sql: AnySql, caller: Caller, studentId: number): Promise<boolean> {
  const reached = await studentReach(sql, caller, studentId);
  if (reached.reach && STAFF.includes(reached.reach)) return true;
  if (caller.persona === 'TEACHER' && groupReach) return groupReach(sql, caller.userId, studentId);
  return false;
}
