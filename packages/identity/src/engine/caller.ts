import { ApiError } from '@qiraa/http-kit';
import type { FastifyRequest } from 'fastify';
import type { Permission, Persona } from './permissions';

/** Throws 404 (`notFound`) when the resource the request names is missing or out of the caller's tenant. */
export type TargetCheck = (request: FastifyRequest) => Promise<void>;

/** The authenticated user and their tenant context, resolved once per request by the auth hook. */
export interface Caller {
  readonly userId: number;
  readonly persona: Persona;
  /** null only for the super-scope administrator. */
  readonly organizationId: string | null;
  /** The principal's school. */
  readonly schoolId: string | null;
  readonly permissions: readonly Permission[];
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** No bearer token needed (login, register, student login, class preview). */
    public?: boolean;
    /**
     * The caller must hold at least one of these, else 403 PERMISSION_DENIED, before the body is validated;
     * but a route naming a resource (path, query or body) declares `target`, and a caller without the
     * permission is refused only after it: another organization's or a missing resource is 404 first
     * (tenant before permission).
     */
    anyPermission?: readonly Permission[];
    /** A persona gate (e.g. student-only routes), refused exactly like a missing `anyPermission`. */
    anyPersona?: readonly Persona[];
    /** Resolves the resource the request names; throws 404 when it is missing or another organization's. */
    target?: TargetCheck;
    /**
     * How to sign in, answered in place of the bare TOKEN_MISSING message (a link opened without a token,
     * e.g. a printed sheet's QR code): the 401 tells the reader what to do and nothing about the resource.
     */
    signInHint?: { message: string; details: { field: string; issue: string }[] };
  }
}

export const isSuperAdmin = (caller: Caller) => caller.permissions.includes('SUPER_ADMIN');
export const holds = (caller: Caller, ...any: Permission[]) => any.some((p) => caller.permissions.includes(p));

/** The caller of a protected route (the hook guarantees one). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new ApiError(401, 'TOKEN_MISSING', 'authentication required');
  return request.caller;
}
