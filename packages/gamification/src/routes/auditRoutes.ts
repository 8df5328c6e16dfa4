import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BigintId, errorResponses, validationFailed } from '@qiraa/http-kit';
import { callerOf, studentReach, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { gamificationAudit } from '../queries/audit';

const AuditQuery = Type.Object({
  studentId: BigintId,
  from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive; events created at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive; events created before' })),
});

const AuditEvent = Type.Object({
  eventId: Type.String({ format: 'uuid' }),
  streamVersion: Type.String({ pattern: '^[1-9][0-9]*$', description: '1-based position in the stream' }),
  type: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  data: Type.Unknown({ description: 'the event exactly as stored' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'as stored: causationId (on a reversal, the void event that caused it), organizationId, actorUserId',
  }),
});

const AuditResponse = Type.Object({
  studentId: Type.Integer(),
  from: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  to: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  masteryEvents: Type.Array(AuditEvent, {
    description: 'stream mastery-<studentId> (MasteryEventRecorded, MasteryEventReversed)',
  }),
  xpTransactions: Type.Array(AuditEvent, {
    description: 'stream xp-<studentId> (XpCredited, XpReversed: rescind_reversal, void_reversal)',
  }),
  badgeAwards: Type.Array(AuditEvent, { description: 'stream badgeaward-<studentId>' }),
  badgeRescinds: Type.Array(AuditEvent, { description: 'stream badgerescind-<studentId>' }),
});

/** GET /api/admin/gamification/audit: the raw streams of one student, for auditors. */
export const auditRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/gamification/audit',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: tenantTarget(deps.sql, { studentId: 'student' }) },
        schema: {
          tags: ['gamification'],
          summary: 'Raw mastery-event, XP-transaction and badge streams of one student',
          description:
            'Read from the event store, not the read models, each stream in order, kept to events created in ' +
            '[from, to) when given (from after to: 422). RUN_BACKOFFICE; an organization admin reaches only ' +
            'students of their organization (another organization or an unknown student: 404).',
          security: [{ bearerAuth: [] }],
          querystring: AuditQuery,
          response: { 200: AuditResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { studentId, from, to } = request.query;
        if (from && to && Date.parse(from) > Date.parse(to)) {
          throw validationFailed([{ field: 'to', issue: 'must not be before from' }]);
        }
        await studentReach(deps.sql, callerOf(request), studentId);
        return gamificationAudit(deps.store, studentId, {
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
        });
      },
    );
  };
