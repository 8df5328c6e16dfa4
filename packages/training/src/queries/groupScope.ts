import type { AnySql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import {
  type Caller,
  callerOf,
  inOrganizationOr404,
  reachOr404,
  requestInput,
  type TargetCheck,
  tenantTarget,
} from '@qiraa/identity';

export interface GroupRow {
  id: string;
  organization_id: string;
  owner_user_id: string;
  name_ar: string;
  created_at: Date;
}

/** The spec's code for training alerts of a class not held or a group not owned (also for managing a group). */
export const notClassTeacher = (message: string) => new ApiError(403, 'NOT_CLASS_TEACHER', message);

/** A live support group of the caller's organization (404 otherwise; an archived group is gone). */
export async function groupInOrganization(sql: AnySql, caller: Caller, groupId: string): Promise<GroupRow> {
  const [group] = await sql<GroupRow[]>`
    select id, organization_id, owner_user_id::text, name_ar, created_at from trn_support_groups
    where id = ${groupId} and archived_at is null`;
  inOrganizationOr404(caller, group?.organization_id, 'support group');
  return group!;
}

/** The group, when the caller owns it: 404 outside the organization, 403 NOT_CLASS_TEACHER for another's group. */
export async function ownedGroup(sql: AnySql, caller: Caller, groupId: string): Promise<GroupRow> {
  const group = await groupInOrganization(sql, caller, groupId);
  if (Number(group.owner_user_id) !== caller.userId) throw notClassTeacher('the support group is another teacher’s');
  return group;
}

/** Whether the teacher owns a live support group holding the child (the training staff views' group reach). */
export async function ownsGroupHolding(sql: AnySql, teacherUserId: number, studentId: number): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (
      select 1 from trn_support_groups g join trn_support_group_members m on m.group_id = g.id
      where g.owner_user_id = ${teacherUserId} and g.archived_at is null and m.student_user_id = ${studentId}
    ) as found`;
  return row?.found ?? false;
}

/**
 * The auth hook's `target` for the group and send routes: the group, the children and the class or teacher the
 * request names, each 404 when missing or another organization's (tenant before permission). It reads the input
 * before validation, so it skips a field of the wrong shape (the refusal then stays 403).
 */
export const trainingTarget =
  (sql: AnySql): TargetCheck =>
  async (request) => {
    const input = requestInput(request);
    await tenantTarget(sql, { classId: 'class', onBehalfOfTeacherUserId: 'user' })(request);
    if (typeof input.groupId === 'string') await groupInOrganization(sql, callerOf(request), input.groupId);
    const studentIds = Array.isArray(input.studentIds) ? input.studentIds : [];
    for (const id of studentIds) {
      if (Number.isSafeInteger(id) && id > 0) await reachOr404(sql, request, 'student', id);
    }
  };
