import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BigintId, errorResponses } from '@qiraa/http-kit';
import { callerOf, studentReach, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { replayReport } from '../replay/replayReport';

const ReplayBody = Type.Object({
  studentId: BigintId,
  asOf: Type.String({ format: 'date-time', description: 'fold events created at or before this instant' }),
});

const Keys = Type.Object({
  xpBalance: Type.Integer(),
  badgeCodes: Type.Array(Type.String(), { description: 'active badges, sorted' }),
  avatarTier: Type.Integer({ minimum: 1, maximum: 5 }),
});

const ReplayResponse = Type.Object({
  studentId: Type.Integer(),
  asOf: Type.String({ format: 'date-time' }),
  derived: Keys,
  stored: Keys,
  drift: Type.Object({ xpBalance: Type.Boolean(), badges: Type.Boolean(), avatarTier: Type.Boolean() }),
  hasDrift: Type.Boolean(),
});

/** POST /api/admin/gamification/replay: re-derive one student's ledger from the streams and compare. */
export const replayRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/gamification/replay',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: tenantTarget(deps.sql, { studentId: 'student' }) },
        schema: {
          tags: ['gamification'],
          summary: 'Replay one student’s gamification streams and report drift from the read models',
          description:
            '`derived`: the mastery stream up to asOf folded through the decision rules with each event’s pinned ' +
            'rule version, minus rescinds up to asOf. `stored`: the same keys read from the gam_* read models as ' +
            'of asOf. `drift` per key, `hasDrift` when any. Writes nothing. RUN_BACKOFFICE; an organization admin ' +
            'reaches only students of their organization (another organization or an unknown student: 404).',
          security: [{ bearerAuth: [] }],
          body: ReplayBody,
          response: { 200: ReplayResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        await studentReach(deps.sql, callerOf(request), request.body.studentId);
        return replayReport(deps, request.body.studentId, new Date(request.body.asOf));
      },
    );
  };
