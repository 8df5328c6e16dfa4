import jwt from '@fastify/jwt';
import { recordAuditEvent } from '@qiraa/audit';
import { ApiError } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { holds, isSuperAdmin } from './caller';
import { tenantContextCache } from './tenantContextCache';
import { ACCESS_TOKEN_SECONDS, type AccessClaims, JWT_ALGORITHM } from './tokenClaims';

const tokenErrors: Record<string, [string, string]> = {
  FST_JWT_NO_AUTHORIZATION_IN_HEADER: ['TOKEN_MISSING', 'no Authorization header'],
  FST_JWT_AUTHORIZATION_TOKEN_EXPIRED: ['TOKEN_EXPIRED', 'access token expired; call refresh'],
};

async function verifiedClaims(request: FastifyRequest): Promise<AccessClaims> {
  try {
    return await request.jwtVerify<AccessClaims>();
  } catch (error) {
    const [code, message] = tokenErrors[(error as { code?: string }).code ?? ''] ?? [
      'TOKEN_INVALID',
      'access token is malformed or not recognized',
    ];
    throw new ApiError(401, code, message);
  }
}

const denied = () => new ApiError(403, 'PERMISSION_DENIED', 'permission set does not cover the operation');

/**
 * The tenant context, resolved once for every /api route: verify the bearer token (HS256 only), confirm
 * the user and organization through the tenant-context cache (disabled ones stop at once), check the
 * route's `anyPermission`, and record
 * a super-bypass audit event for every super-scope administrator call.
 *
 * Tenant before permission: a caller without the permission on a route that names a resource is refused
 * only after the route's `target` check ran (preHandler, once the input is parsed and validated), so
 * another organization's or a missing resource answers 404, never 403. A route with a path parameter and
 * `anyPermission` cannot be registered without `target`.
 */
export const authPlugin = (deps: ContextDeps) =>
  fp(async (app: FastifyInstance) => {
    await app.register(jwt, {
      secret: deps.jwtSecret,
      sign: { algorithm: JWT_ALGORITHM, expiresIn: ACCESS_TOKEN_SECONDS },
      verify: { algorithms: [JWT_ALGORITHM] },
    });
    app.decorateRequest('caller', null);
    const refusedAfterTarget = new WeakSet<FastifyRequest>();
    app.addHook('onRoute', (route) => {
      if (route.config?.anyPermission && !route.config.target && route.url.includes(':')) {
        throw new Error(
          `${route.method} ${route.url}: a route with anyPermission and a path target needs config.target`,
        );
      }
    });
    const callers = tenantContextCache(deps.sql);
    app.addHook('onClose', () => callers.close());
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const claims = await verifiedClaims(request);
      const userId = Number(claims.sub);
      const caller = Number.isSafeInteger(userId) ? await callers.load(userId) : null;
      if (!caller) throw new ApiError(401, 'SESSION_REVOKED', 'the account or its organization is disabled');
      request.caller = caller;
      const needed = request.routeOptions.config?.anyPermission;
      if (needed && !holds(caller, ...needed)) {
        if (!request.routeOptions.config.target) throw denied();
        refusedAfterTarget.add(request);
      }
      if (isSuperAdmin(caller)) {
        await recordAuditEvent(deps.store, {
          eventType: 'super_bypass',
          organizationId: null,
          actorUserId: caller.userId,
          detail: { method: request.method, route: request.routeOptions.url ?? request.url },
        });
      }
    });
    app.addHook('preHandler', async (request) => {
      if (!refusedAfterTarget.has(request)) return;
      await request.routeOptions.config.target?.(request);
      throw denied();
    });
  });
