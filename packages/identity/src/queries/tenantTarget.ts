import type { AnySql } from '@qiraa/db';
import type { FastifyRequest } from 'fastify';
import { callerOf, type TargetCheck } from '../engine/caller';
import { inOrganizationOr404 } from './scope';

/** The tenant resources a request names by id, and the organization each belongs to. */
const organizationOf = {
  organization: (sql: AnySql, id: string | number) =>
    sql<{ organization_id: string }[]>`select id as organization_id from organizations where id = ${String(id)}`,
  school: (sql: AnySql, id: string | number) =>
    sql<{ organization_id: string }[]>`select organization_id from schools where id = ${String(id)}`,
  class: (sql: AnySql, id: string | number) =>
    sql<{ organization_id: string }[]>`select organization_id from classes where id = ${String(id)}`,
  user: (sql: AnySql, id: string | number) =>
    sql<{ organization_id: string }[]>`select organization_id from users where id = ${Number(id)}`,
  student: (sql: AnySql, id: string | number) =>
    sql<{ organization_id: string }[]>`
      select organization_id from users where id = ${Number(id)} and primary_persona = 'STUDENT'`,
};
export type TenantKind = keyof typeof organizationOf;

/** The request's input, path parameters first, then query, then body (each already validated). */
export function requestInput(request: FastifyRequest): Record<string, unknown> {
  const parts = [request.body, request.query, request.params].filter((p) => p && typeof p === 'object');
  return Object.assign({}, ...(parts as object[]));
}

/** 404 unless the resource exists in the caller's organization (any one for the super-scope administrator). */
export async function reachOr404(sql: AnySql, request: FastifyRequest, kind: TenantKind, id: string | number) {
  const [row] = await organizationOf[kind](sql, id);
  inOrganizationOr404(callerOf(request), row?.organization_id, kind);
}

/**
 * A route's `target` check from the input fields that name tenant resources, e.g.
 * `tenantTarget(sql, { classId: 'class', teacherUserId: 'user' })`; an absent (optional) field is skipped.
 */
export const tenantTarget =
  (sql: AnySql, fields: Readonly<Record<string, TenantKind>>): TargetCheck =>
  async (request) => {
    const input = requestInput(request);
    for (const [field, kind] of Object.entries(fields)) {
      const id = input[field];
      if (typeof id === 'string' || typeof id === 'number') await reachOr404(sql, request, kind, id);
    }
  };
