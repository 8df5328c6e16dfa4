import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AuditDetail, recordAuditEvent } from '@qiraa/audit';
import type { AnySql } from '@qiraa/db';
import { errorResponses, notFound, validationFailed } from '@qiraa/http-kit';
import {
  type Caller,
  callerOf,
  isSuperAdmin,
  organizationExists,
  reachOr404,
  type TargetCheck,
  tenantTarget,
} from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyRequest } from 'fastify';
import { lastCheckpoint } from '../queries/checkpoints';
import { eventInScope, eventWithCauses } from '../queries/eventById';
import { explain } from '../queries/explain';
import { logEvents } from '../queries/logEvents';
import { streamEvents, streamInScope } from '../queries/streamEvents';
import { studentStreams } from '../queries/studentStreams';
import {
  DEFAULT_LIMIT,
  EventParams,
  EventsPage,
  EventWithCauses,
  ExplainParams,
  ExplainQuery,
  Explanation,
  LogQuery,
  StreamEventsQuery,
  StreamParams,
  StreamsPage,
  StreamsQuery,
  VerifyStatus,
} from '../schemas';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];
const anyPermission = ['RUN_BACKOFFICE'] as const;
const SCOPE =
  'RUN_BACKOFFICE; an organization administrator reads only the streams of their organization (another ' +
  "organization's stream, event or student is 404), the super scope every one. Each read writes a " +
  '`stream_read` audit-log entry. Reads the PostgreSQL event store (docs/auditing.md).';

/** The organization a caller reads: theirs, or null (every organization) for the super scope. */
function scopeOf(caller: Caller): string | null {
  if (isSuperAdmin(caller)) return null;
  if (caller.organizationId === null) throw notFound('stream');
  return caller.organizationId;
}

/**
 * The organization the global log is read for, as the audit-log route and the roster import treat a named one:
 * the super scope every organization, or the one it names (a missing one is 404); an organization
 * administrator their own, naming it or not (another organization, like any of its resources, is 404).
 */
async function logScopeOf(sql: AnySql, caller: Caller, asked: string | undefined): Promise<string | null> {
  if (isSuperAdmin(caller)) {
    if (asked !== undefined && !(await organizationExists(sql, asked))) throw notFound('organization');
    return asked ?? null;
  }
  if (caller.organizationId === null || (asked !== undefined && asked !== caller.organizationId)) {
    throw notFound('organization');
  }
  return caller.organizationId;
}

const params = (request: FastifyRequest) => request.params as Record<string, unknown>;

/** GET /api/admin/streams, /streams/{id}/events, /events, /events/{id}, /students/{id}/explain, /events/verify. */
export const auditorRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql, store } = deps;
    // Tenant before permission (auth plugin): a refused caller naming another organization is 404, not 403.
    // Naming none names no resource: the refusal stays 403 (a caller of no organization included).
    const namedOrganization: TargetCheck = async (request) => {
      const asked = (request.query as { organizationId?: string }).organizationId;
      if (asked !== undefined) await logScopeOf(sql, callerOf(request), asked);
    };
    /** The `stream_read` audit-log entry of a read that was answered (who read what). */
    const logRead = (request: FastifyRequest, detail: AuditDetail, targetStudentId?: number) => {
      const caller = callerOf(request);
      return recordAuditEvent(deps.store, {
        eventType: 'stream_read',
        organizationId: caller.organizationId,
        actorUserId: caller.userId,
        targetStudentId: targetStudentId ?? null,
        detail,
        occurredAt: deps.clock.now(),
      });
    };

    app.get(
      '/admin/streams',
      {
        config: { anyPermission, target: tenantTarget(sql, { studentId: 'student' }) },
        schema: {
          tags,
          summary: 'Every stream about a student (the index the append keeps), in stream id order',
          description: SCOPE,
          security,
          querystring: StreamsQuery,
          response: { 200: StreamsPage, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { studentId, limit = DEFAULT_LIMIT, cursor } = request.query;
        // The target check runs only for a refused caller; a permitted one is held to the tenant here.
        await reachOr404(sql, request, 'student', studentId);
        const page = await studentStreams(store, {
          studentId,
          organizationId: scopeOf(callerOf(request)),
          limit,
          cursor,
        });
        await logRead(request, { read: 'student_streams' }, studentId);
        return page;
      },
    );

    app.get(
      '/admin/streams/:streamId/events',
      {
        config: {
          anyPermission,
          target: (request) => streamInScope(store, String(params(request).streamId), scopeOf(callerOf(request))),
        },
        schema: {
          tags,
          summary: 'One stream, in version order',
          description: SCOPE,
          security,
          params: StreamParams,
          querystring: StreamEventsQuery,
          response: { 200: EventsPage, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { streamId } = request.params;
        await streamInScope(store, streamId, scopeOf(callerOf(request)));
        const { fromVersion = 1, limit = DEFAULT_LIMIT, cursor } = request.query;
        const page = await streamEvents(store, { streamId, fromVersion, limit, cursor });
        await logRead(request, { read: 'stream_events', streamId });
        return page;
      },
    );

    app.get(
      '/admin/events/verify',
      {
        config: { anyPermission },
        schema: {
          tags,
          summary: 'The last checkpoint `qiraa events verify` recorded over the whole log',
          description:
            'RUN_BACKOFFICE. A checkpoint is written by a whole run of `qiraa events verify` (or the daily ' +
            '`auditing.verify-log` schedule) that found every hash intact; null before the first. Writes a ' +
            '`stream_read` audit-log entry.',
          security,
          response: { 200: VerifyStatus, ...errorResponses(401, 403) },
        },
      },
      async (request) => {
        const checkpoint = await lastCheckpoint(store);
        await logRead(request, { read: 'verify_checkpoint' });
        return { checkpoint };
      },
    );

    app.get(
      '/admin/events',
      {
        config: { anyPermission, target: namedOrganization },
        schema: {
          tags,
          summary:
            'The global log in commit order, filtered by position, type, category, recording time and organization',
          description:
            `${SCOPE} organizationId narrows the super scope to one organization's streams (404 when there is no ` +
            'such organization); an organization administrator naming their own reads the same as without it, ' +
            'naming another is 404. A `next` keeps the organization it was given for: passed back under another ' +
            'one (or none where it had one, or one where it had none) it is 422 invalid_cursor. Only committed ' +
            'events below the oldest open transaction are listed, so a cursor never skips one.',
          security,
          querystring: LogQuery,
          response: { 200: EventsPage, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { after, type, category, from, to, organizationId, limit = DEFAULT_LIMIT, cursor } = request.query;
        const scope = await logScopeOf(sql, callerOf(request), organizationId);
        if (from && to && Date.parse(from) > Date.parse(to)) {
          throw validationFailed([{ field: 'to', issue: 'must not be before from' }]);
        }
        const page = await logEvents(store, {
          organizationId: scope,
          after,
          types: type ? [type] : undefined,
          category,
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
          limit,
          cursor,
        });
        const detail: AuditDetail = { read: 'log' };
        if (type) detail.type = type;
        if (category) detail.category = category;
        if (organizationId) detail.organizationId = organizationId;
        await logRead(request, detail);
        return page;
      },
    );

    app.get(
      '/admin/events/:eventId',
      {
        config: {
          anyPermission,
          target: async (request) => {
            await eventInScope(store, String(params(request).eventId), scopeOf(callerOf(request)));
          },
        },
        schema: {
          tags,
          summary: 'One event, the event that caused it and the events it caused',
          description: SCOPE,
          security,
          params: EventParams,
          response: { 200: EventWithCauses, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { eventId } = request.params;
        const answer = await eventWithCauses(store, eventId, scopeOf(callerOf(request)));
        await logRead(request, { read: 'event', eventId: answer.event.eventId, streamId: answer.event.streamId });
        return answer;
      },
    );

    app.get(
      '/admin/students/:studentId/explain',
      {
        config: { anyPermission, target: tenantTarget(sql, { studentId: 'student' }) },
        schema: {
          tags,
          summary: 'A derived value (XP balance, badges, a skill status, a training level) and the events behind it',
          description:
            `${SCOPE} xpBalance: each event carries its delta and the deltas sum to the value (while the ` +
            'projection is caught up). skillStatus and trainingLevel need subSkillId (422 without).',
          security,
          params: ExplainParams,
          querystring: ExplainQuery,
          response: { 200: Explanation, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { studentId } = request.params;
        const { what, subSkillId } = request.query;
        await reachOr404(sql, request, 'student', studentId);
        const answer = await explain(deps, studentId, what, subSkillId);
        const detail: AuditDetail = { read: 'explain', what };
        if (subSkillId) detail.subSkillId = subSkillId;
        await logRead(request, detail, studentId);
        return answer;
      },
    );
  };
