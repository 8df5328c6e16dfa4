import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { inTransaction } from '@qiraa/db';
import { errorResponses, notFound } from '@qiraa/http-kit';
import { callerOf, studentReach, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import type { Static } from 'typebox';
import { type MasteryEventInput, type RecordResult, recordMasteryEvents } from '../commands/recordMasteryEvents';
import { studentsInOrganization } from '../queries/studentsInOrganization';
import { IngestBatchBody, IngestBatchResponse, IngestBody, IngestResponse, MAX_INGEST_BATCH } from '../schemas';

type IngestItem = Static<typeof IngestBody>;

const answer = (result: Exclude<RecordResult, { kind: 'unknown_student' }>) =>
  result.kind === 'duplicate'
    ? { outcome: 'duplicate' as const, masteryEventId: result.masteryEventId, written: false }
    : {
        outcome: 'recorded' as const,
        masteryEventId: result.masteryEventId,
        written: true,
        xpCredited: result.xpCredited,
        badgeCode: result.badgeCode,
      };

const toInput = ({ kind: _kind, ...input }: Extract<IngestItem, { kind: 'mastery_event' }>): MasteryEventInput => input;

/**
 * POST /api/gamification/mastery-events: the out-of-process decision engine's door into the ledger, and
 * POST /api/gamification/mastery-events/batch for engines that send many. Idempotent on engineEventId: a
 * re-sent event answers `duplicate` and writes nothing. A student of another organization is 404 (for the
 * batch: that event's `not_found`); the command checks it against the caller's organization in the same
 * statement that reads the student, so ingest costs no separate look-up.
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
        const caller = callerOf(request);
        if (body.kind === 'halt') {
          await studentReach(deps.sql, caller, body.studentId);
          return reply.code(200).send({ outcome: 'halted', masteryEventId: null, written: false, signal: body.signal });
        }
        // One event a request is the engines' common case: concurrent requests share a transaction and its
        // commit when the process combines writes (WRITE_COMBINE_MS), each decided alone in its savepoint.
        const input = toInput(body);
        const organizationId = caller.organizationId;
        const [result] = await inTransaction(
          deps.sql,
          (uow) => recordMasteryEvents(deps, [input], { organizationId, uow, last: true }),
          { combine: true, combineKey: input.studentId },
        );
        if (!result || result.kind === 'unknown_student') throw notFound('student');
        return reply.code(result.kind === 'duplicate' ? 200 : 201).send(answer(result));
      },
    );

    app.post(
      '/gamification/mastery-events/batch',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'] },
        schema: {
          tags: ['gamification'],
          summary: `Ingest up to ${MAX_INGEST_BATCH} mastery events (or halt signals) in one request`,
          description:
            'Each event is handled as the single-event route would: recorded, duplicate (already stored, or ' +
            'earlier in this request), halted, or not_found (no such student in the caller’s organization). ' +
            'All or nothing per event: one result per event, in request order; the events are decided in ' +
            'request order, so a student’s later event builds on the earlier ones. A body that fails ' +
            'validation is refused whole (422).',
          security: [{ bearerAuth: [] }],
          body: IngestBatchBody,
          response: { 200: IngestBatchResponse, ...errorResponses(401, 403, 422) },
        },
      },
      async (request) => {
        const { events } = request.body;
        const { organizationId } = callerOf(request);
        const mastery = events.flatMap((e) => (e.kind === 'mastery_event' ? [toInput(e)] : []));
        const halts = events.flatMap((e) => (e.kind === 'halt' ? [e.studentId] : []));
        const [recorded, reachable] = await Promise.all([
          recordMasteryEvents(deps, mastery, { organizationId }),
          studentsInOrganization(deps.sql, [...new Set(halts)], organizationId),
        ]);
        let next = 0;
        const results = events.map((event) => {
          const missing = { engineEventId: event.engineEventId, outcome: 'not_found' as const, masteryEventId: null };
          if (event.kind === 'halt') {
            if (!reachable.has(event.studentId)) return { ...missing, written: false };
            const halted = { outcome: 'halted' as const, masteryEventId: null, written: false, signal: event.signal };
            return { engineEventId: event.engineEventId, ...halted };
          }
          const result = recorded[next++]!;
          if (result.kind === 'unknown_student') return { ...missing, written: false };
          return { engineEventId: event.engineEventId, ...answer(result) };
        });
        return { recorded: results.filter((r) => r.written).length, results };
      },
    );
  };
