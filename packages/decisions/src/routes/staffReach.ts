import type { Sql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { callerOf, type Permission, reachOr404, type StudentReach, studentReach } from '@qiraa/identity';
import type { FastifyRequest } from 'fastify';

/**
 * Who reads a child's decisions (skill status, monitoring, profile, recommendation): staff, as for the child's
 * other staff views, never a parent or the child.
 */
export const STAFF_READERS: readonly Permission[] = [
  'SUPER_ADMIN',
  'MANAGE_ORG',
  'VIEW_OWN_CLASSES',
  'VIEW_SCHOOL',
  'VIEW_ORGANIZATION',
];
const STAFF_REACH: readonly StudentReach[] = ['super', 'admin', 'teacher', 'principal', 'manager'];

/** The route config of a `/sse/students/:id/...` read: reader permissions, the tenant rule (404) first. */
export const staffReadConfig = (sql: Sql) => ({
  anyPermission: STAFF_READERS,
  target: async (request: FastifyRequest) => reachOr404(sql, request, 'student', (request.params as { id: number }).id),
});

/** 403 unless the caller is staff who reach the child (another teacher of the organization does not). */
export async function requireStaffReach(sql: Sql, request: FastifyRequest, what: string): Promise<void> {
  const reached = await studentReach(sql, callerOf(request), (request.params as { id: number }).id);
  if (!reached.reach || !STAFF_REACH.includes(reached.reach)) {
    throw permissionDenied(`staff who reach the child read its ${what}`);
  }
}
