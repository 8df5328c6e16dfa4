import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound } from '@qiraa/http-kit';
import { callerOf, studentReach, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { recordMasteryEvent } from '../commands/recordMasteryEvent';
import { IngestBody, IngestResponse } from '../schemas';

/**
 * POST /api/gamification/mastery-events: the out-of-process decision engine's door into the ledger.
 * Idempotent on engineEventId: a re-sent event answers 200 `duplicate` and writes nothing.
 */
export const ingestRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/gamification/mastery-events',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: tenantTarget(deps.sql, { studentId: 'student' }) },
        schema: {
          tags: ['gamification'],
          summary: 'Ingest one mastery event (or a halt signal) from the decision engine',
          description:
            'A halt signal (do_not_decide_yet, partial_domain_profile) writes nothing and says so. The caller is a ' +
            'back-office service account of the student’s organization (RUN_BACKOFFICE).',
          security: [{ bearerAuth: [] }],
          body: IngestBody,
          response: { 200: IngestResponse, 201: IngestResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        await studentReach(deps.sql, callerOf(request), body.studentId);
        if (body.kind === 'halt') {
          return reply.code(200).send({ outcome: 'halted', masteryEventId: null, written: false, signal: body.signal });
        }
        const { kind: _kind, ...input } = body;
        const result = await recordMasteryEvent(deps, input);
        if (result.kind === 'unknown_student') throw notFound('student');
        if (result.kind === 'duplicate') {
          return reply.code(200).send({ outcome: 'duplicate', masteryEventId: result.masteryEventId, written: false });
        }
        return reply.code(201).send({
          outcome: 'recorded',
          masteryEventId: result.masteryEventId,
          written: true,
          xpCredited: result.xpCredited,
          badgeCode: result.badgeCode,
        });
      },
    );
  };
