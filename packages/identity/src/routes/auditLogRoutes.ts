import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUDIT_LOG_DEFAULT_LIMIT, AUDIT_LOG_MAX_LIMIT, getAuditEntry, listAuditLog } from '@qiraa/audit';
import { errorResponses, notFound } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { type Caller, callerOf, isSuperAdmin, type TargetCheck } from '../engine/caller';
import { inOrganizationOr404 } from '../queries/scope';
import { OrganizationId, UserId } from '../schemas';

const security = [{ bearerAuth: [] }];
const tags = ['admin'];

const AuditId = Type.String({
  pattern: '^[a-z][a-z_]*:[A-Za-z0-9-]{1,64}$',
  description: '`audit:<uuid>`, or a producer-named id such as `void:<int>`',
});
const Timestamp = Type.String({ format: 'date-time' });

/** Shared (context.ts `sharedSchemas`): a named component of the OpenAPI document. */
export const AuditLogEntry = Type.Object(
  {
    id: AuditId,
    eventType: Type.String(),
    organizationId: Type.Union([Type.String(), Type.Null()], { description: 'null for platform-level entries' }),
    actorUserId: Type.Union([UserId, Type.Null()]),
    targetStudentId: Type.Union([UserId, Type.Null()]),
    targetClassId: Type.Union([Type.String(), Type.Null()]),
    detail: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
      description: 'codes, ids, flags and numbers of the event (never free text), e.g. voidKind and voidReason',
    }),
    occurredAt: Timestamp,
  },
  { $id: 'AuditLogEntry' },
);

const AuditLogQuery = Type.Object({
  eventType: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'e.g. super_bypass' })),
  actorUserId: Type.Optional(UserId),
  targetStudentId: Type.Optional(UserId),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'occurredAt at or after (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'occurredAt before (exclusive)' })),
  organizationId: Type.Optional(OrganizationId),
  cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,512}$', description: 'nextCursor of the last page' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: AUDIT_LOG_MAX_LIMIT,
      default: AUDIT_LOG_DEFAULT_LIMIT,
      description: 'page size',
    }),
  ),
});

const AuditLogPage = Type.Object({
  items: Type.Array(Type.Ref('AuditLogEntry')),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

/**
 * The organization whose entries the caller may read: an organization administrator only their own (asking
 * for another is 404, like any other organization's resource); the super-scope administrator any, or all.
 */
function readableOrganization(caller: Caller, asked: string | undefined): string | undefined {
  if (isSuperAdmin(caller)) return asked;
  if (caller.organizationId === null || (asked !== undefined && asked !== caller.organizationId)) {
    throw notFound('organization');
  }
  return caller.organizationId;
}

/** GET /api/admin/audit-log and /{id}: the audit read model (package @qiraa/audit), gated and scoped here. */
export const auditLogRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Tenant before permission (auth plugin): the organization the request names, the entry it reads.
    const namedOrganization: TargetCheck = async (request) => {
      readableOrganization(callerOf(request), (request.query as { organizationId?: string }).organizationId);
    };
    const entryTarget: TargetCheck = async (request) => {
      const entry = await getAuditEntry(deps.sql, (request.params as { id: string }).id);
      inOrganizationOr404(callerOf(request), entry?.organizationId, 'audit entry');
    };

    app.get(
      '/admin/audit-log',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: namedOrganization },
        schema: {
          tags,
          summary: 'Audit log entries, newest first, filtered and cursor-paged',
          description:
            'Organization administrators see their own organization only; the super-scope administrator sees ' +
            'every entry (platform-level ones included) and may filter by organizationId. Entries appear once ' +
            'the audit projection has caught up (asynchronous).',
          security,
          querystring: AuditLogQuery,
          response: { 200: AuditLogPage, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { organizationId, ...filter } = request.query;
        return listAuditLog(deps.sql, {
          ...filter,
          organizationId: readableOrganization(callerOf(request), organizationId),
        });
      },
    );

    app.get(
      '/admin/audit-log/:id',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: entryTarget },
        schema: {
          tags,
          summary: 'One audit log entry, e.g. `void:<int>`',
          security,
          params: Type.Object({ id: AuditId }),
          response: { 200: Type.Ref('AuditLogEntry'), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const entry = await getAuditEntry(deps.sql, request.params.id, {
          organizationId: readableOrganization(callerOf(request), undefined),
        });
        if (!entry) throw notFound('audit entry');
        return entry;
      },
    );
  };
