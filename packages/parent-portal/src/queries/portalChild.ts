import type { Sql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import {
  type Caller,
  type StudentGender,
  type StudentReach,
  studentGender,
  studentReach,
  userName,
} from '@qiraa/identity';
import { firstNameOf } from './childrenOf';

/**
 * Who sees a child through the portal: a parent linked to the child, the organization's administrator and the
 * super-admin (RUN_BACKOFFICE: support staff looking at what a parent sees). The PDF adds the teacher of one of
 * the child's active classes (docs/parent-portal.md, "Who prints the PDF").
 */
export const PORTAL_REACH: readonly StudentReach[] = ['parent', 'admin', 'super'];
export const PDF_REACH: readonly StudentReach[] = [...PORTAL_REACH, 'teacher'];

export interface PortalChild {
  studentId: number;
  organizationId: string;
  firstName: string;
  gender: StudentGender | null;
  reach: StudentReach;
}

/**
 * The tenant rule, then the link: another organization's or an unknown child 404 (the route's target has
 * already said so), a child of the organization the caller does not reach this way 403.
 */
export async function portalChild(
  sql: Sql,
  caller: Caller,
  childId: number,
  reaches: readonly StudentReach[] = PORTAL_REACH,
): Promise<PortalChild> {
  const reached = await studentReach(sql, caller, childId);
  if (!reached.reach || !reaches.includes(reached.reach)) {
    throw permissionDenied('only a parent linked to the child (or the organization’s administrator) sees it here');
  }
  const [name, gender] = await Promise.all([userName(sql, childId), studentGender(sql, childId)]);
  return {
    studentId: childId,
    organizationId: reached.organizationId,
    firstName: firstNameOf(name!),
    gender,
    reach: reached.reach,
  };
}
