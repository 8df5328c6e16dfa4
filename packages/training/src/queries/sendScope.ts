import type { TransactionSql } from '@qiraa/db';
import { ApiError, permissionDenied, unprocessable } from '@qiraa/http-kit';
import {
  activeClassRosterQuery,
  activeStudentsQuery,
  type Caller,
  classRecord,
  holds,
  inOrganizationOr404,
  teachesClass,
  userStanding,
} from '@qiraa/identity';
import { groupInOrganization, notClassTeacher } from './groupScope';

export interface SendScope {
  organizationId: string;
  teacherUserId: number;
  classId: string | null;
  groupId: string | null;
  /** The class's grade (null for a group: its children may sit in several grades). */
  grade: number | null;
  /** The class's academic year (null for a group). */
  academicYear: string | null;
  studentIds: number[];
}

const STAFF = ['SUPER_ADMIN', 'MANAGE_ORG', 'VIEW_SCHOOL', 'VIEW_ORGANIZATION'] as const;

/**
 * Who sends to whom: the target first (another organization's or an unknown class or group 404), then the caller.
 * A teacher sends as themself to a class they teach or a group they own (else 403 NOT_CLASS_TEACHER). Staff
 * (admin, principal of the class's school, manager, super) send for a teacher: `onBehalfOfTeacherUserId` is
 * required (422 on_behalf_required), names a user of the target's organization (404), who is a teacher (422
 * on_behalf_not_a_teacher) and teaches the class or owns the group (403 on_behalf_teacher_not_in_scope).
 */
export async function sendScopeOf(
  tx: TransactionSql,
  caller: Caller,
  body: { classId?: string; groupId?: string; onBehalfOfTeacherUserId?: number },
): Promise<SendScope> {
  let scope: Omit<SendScope, 'teacherUserId' | 'studentIds'>;
  let schoolId: string | null = null;
  let ownerUserId: number | null = null;
  if (body.classId !== undefined) {
    const cls = await classRecord(tx, body.classId);
    inOrganizationOr404(caller, cls?.organizationId, 'class');
    schoolId = cls!.schoolId;
    scope = {
      organizationId: cls!.organizationId,
      classId: body.classId,
      groupId: null,
      grade: cls!.grade,
      academicYear: cls!.academicYear,
    };
  } else {
    const group = await groupInOrganization(tx, caller, body.groupId!);
    ownerUserId = Number(group.owner_user_id);
    scope = {
      organizationId: group.organization_id,
      classId: null,
      groupId: group.id,
      grade: null,
      academicYear: null,
    };
  }
  const inScope = async (teacherUserId: number) =>
    scope.classId !== null ? await teachesClass(tx, scope.classId, teacherUserId) : ownerUserId === teacherUserId;

  let teacherUserId: number;
  if (caller.persona === 'TEACHER') {
    if (body.onBehalfOfTeacherUserId !== undefined && body.onBehalfOfTeacherUserId !== caller.userId) {
      throw permissionDenied('a teacher sends only as themself');
    }
    if (!(await inScope(caller.userId))) throw notClassTeacher('the class or group is not the caller’s');
    teacherUserId = caller.userId;
  } else if (holds(caller, ...STAFF)) {
    if (holds(caller, 'VIEW_SCHOOL') && !holds(caller, 'SUPER_ADMIN', 'MANAGE_ORG', 'VIEW_ORGANIZATION')) {
      // A principal sends for their own school's classes only.
      if (schoolId === null || schoolId !== caller.schoolId)
        throw permissionDenied('the class is not of the principal’s school');
    }
    if (body.onBehalfOfTeacherUserId === undefined) {
      throw unprocessable('on_behalf_required', 'a staff send names the teacher it is sent for', [
        { field: 'onBehalfOfTeacherUserId', issue: 'required for a staff send' },
      ]);
    }
    const teacher = await userStanding(tx, body.onBehalfOfTeacherUserId);
    if (!teacher || teacher.organizationId !== scope.organizationId) {
      inOrganizationOr404(caller, null, 'teacher');
    }
    if (teacher!.persona !== 'TEACHER' || teacher!.disabled) {
      throw unprocessable('on_behalf_not_a_teacher', 'onBehalfOfTeacherUserId is not an active teacher', [
        { field: 'onBehalfOfTeacherUserId', issue: 'not a teacher' },
      ]);
    }
    if (!(await inScope(body.onBehalfOfTeacherUserId))) {
      throw new ApiError(403, 'PERMISSION_DENIED', 'the teacher does not teach the class or own the group', {
        reason: 'on_behalf_teacher_not_in_scope',
      });
    }
    teacherUserId = body.onBehalfOfTeacherUserId;
  } else {
    throw permissionDenied('a training send is a teacher’s or staff’s');
  }
  const students = await tx<{ id: string }[]>`
    ${
      scope.classId !== null
        ? tx`select r.student_id::text as id from (${activeClassRosterQuery(tx, scope.classId)}) r`
        : tx`select m.student_user_id::text as id from trn_support_group_members m
             where m.group_id = ${scope.groupId}
               and m.student_user_id in (${activeStudentsQuery(tx)})`
    } order by 1`;
  return { ...scope, teacherUserId, studentIds: students.map((s) => Number(s.id)) };
}
