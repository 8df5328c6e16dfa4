import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, refusalResponses } from '@qiraa/http-kit';
import { callerOf, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { OVERRIDE_CODES } from '../codes';
import { acceptSession } from '../commands/acceptSession';
import { cancelSession } from '../commands/cancelSession';
import { CREATION_WINDOW_SECONDS, CREATIONS_PER_WINDOW, createSession } from '../commands/createSession';
import { editSession } from '../commands/editSession';
import { includeRecipient } from '../commands/includeRecipient';
import { blueprintOwner } from '../queries/blueprintQueries';
import { canSee } from '../queries/blueprintScope';
import { classOr404, requireClassTeacher, sessionPlace } from '../queries/sessionAccess';
import { sessionAudit } from '../queries/sessionAudit';
import { sessionView } from '../queries/sessionQueries';
import { BACKOFFICE, security } from '../schemas';
import {
  AcceptBody,
  AuditSchema,
  EditBody,
  FromBlueprintBody,
  IncludeBody,
  RecipientParams,
  SessionParams,
  SessionSchema,
} from '../schemas/sessionSchemas';
import { TEACHER, TEACHER_NOTE } from './catalogRoutes';

const tags = ['sessions'];

/** Session lifecycle: create, edit, accept, include, cancel, read, audit (spec: Session state table). */
export const sessionRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const sessionTarget: TargetCheck = async (request) => {
      await sessionPlace(sql, callerOf(request), (request.params as { id: string }).id);
    };
    const createTarget: TargetCheck = async (request) => {
      const { classId, blueprintId } = request.body as { classId: string; blueprintId: string };
      const caller = callerOf(request);
      const cls = await classOr404(sql, caller, classId);
      const bp = await blueprintOwner(sql, blueprintId);
      if (
        !bp ||
        !canSee(caller, bp.organizationId) ||
        (bp.organizationId ?? cls.organization_id) !== cls.organization_id
      ) {
        throw notFound('blueprint');
      }
    };
    /** The session's class teacher (or the super-admin): 404 other organization, 403 otherwise. */
    const teacherOf = async (request: Parameters<TargetCheck>[0], id: string) => {
      const caller = callerOf(request);
      const place = await sessionPlace(sql, caller, id);
      await requireClassTeacher(sql, caller, place.classId);
      return caller;
    };

    app.post(
      '/sessions/from-blueprint',
      {
        config: { ...TEACHER, target: createTarget },
        schema: {
          tags,
          summary: 'Create a draft session from an operational blueprint, pinned to its version',
          description:
            `${TEACHER_NOTE} The blueprint must be operational (422 reason blueprint_not_operational) and of the ` +
            'class’s grade (422 grade_mismatch); the draft takes its theme and sub-skills and pins its id and ' +
            `version. Rate limit: ${CREATIONS_PER_WINDOW} per ${CREATION_WINDOW_SECONDS / 60} minutes per teacher ` +
            '(sliding window kept in PostgreSQL, shared by every API process); the next is 429 RATE_LIMITED with ' +
            'retryAfter (seconds) and Retry-After.',
          security,
          body: FromBlueprintBody,
          response: {
            201: SessionSchema,
            ...errorResponses(400, 401, 403, 404, 422, 429),
            ...refusalResponses({ 422: ['grade_mismatch'] }),
          },
        },
      },
      async (request, reply) => {
        const id = await createSession(deps, callerOf(request), request.body, deps.clock.now());
        return reply.code(201).send(await sessionView(sql, id));
      },
    );

    app.patch(
      '/sessions/:id/edit',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Edit a draft: target sub-skills (1 to 5) and theme',
          description:
            `${TEACHER_NOTE} Draft only (409 reason not_draft). subSkillIds: 1 to 5 of the catalog, valid in the ` +
            'blueprint’s grade (422 unknown_sub_skill); theme from the closed list. The answer carries ' +
            'advisories: thin_item_coverage names sub-skills with fewer operational training items than ' +
            'minimumItems (advice only; nothing is refused).',
          security,
          params: SessionParams,
          body: EditBody,
          response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        await editSession(deps, caller.userId, request.params.id, request.body);
        return sessionView(sql, request.params.id);
      },
    );

    app.post(
      '/sessions/:id/accept',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Accept a draft: previewed, one slot per student, medium frozen',
          description:
            `${TEACHER_NOTE} draft → previewed (409 not_draft otherwise; no edit after). One row per active ` +
            'student of the class: students whose standing decision on a target sub-skill is do_not_decide_yet ' +
            'are held out and listed in notIncluded (rule SHO-01). deliveryMode online, printable or mixed ' +
            '(printedStudentIds on paper, the others online; 422 printed_students_only_for_mixed, not_in_class). ' +
            'Items per child and the pins (item bank, rule sets, catalog) are frozen here.',
          security,
          params: SessionParams,
          body: AcceptBody,
          response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        await acceptSession(deps, caller.userId, request.params.id, request.body);
        return sessionView(sql, request.params.id);
      },
    );

    app.post(
      '/sessions/:id/recipients/:studentId/include',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Include a held-out student with a fixed override code',
          description:
            `${TEACHER_NOTE} overrideCode is one of ${OVERRIDE_CODES.join(', ')} (no free text; another value ` +
            'is 422). The session must be previewed (409 not_previewed); a student not in the session is 404; ' +
            'one already included is 409 already_included.',
          security,
          params: RecipientParams,
          body: IncludeBody,
          response: {
            200: SessionSchema,
            ...errorResponses(400, 401, 403, 404, 409, 422),
            ...refusalResponses({ 409: ['not_previewed', 'already_included'] }),
          },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        await includeRecipient(
          deps,
          caller.userId,
          request.params.id,
          request.params.studentId,
          request.body.overrideCode,
        );
        return sessionView(sql, request.params.id);
      },
    );

    app.post(
      '/sessions/:id/cancel',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Cancel a draft',
          description: `${TEACHER_NOTE} draft → cancelled (409 not_draft otherwise); still listed under recently generated.`,
          security,
          params: SessionParams,
          response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        await cancelSession(deps, caller.userId, request.params.id);
        return sessionView(sql, request.params.id);
      },
    );

    app.get(
      '/sessions/:id',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Session detail',
          description: `${TEACHER_NOTE} The session with its recipients (slots), the held-out students and, for a draft, advisories.`,
          security,
          params: SessionParams,
          response: { 200: SessionSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        await teacherOf(request, request.params.id);
        return sessionView(sql, request.params.id);
      },
    );

    app.get(
      '/sessions/:id/audit',
      {
        config: { ...BACKOFFICE, target: sessionTarget },
        schema: {
          tags,
          summary: 'The full pin set and aggregate snapshot of a session (replay)',
          description:
            'RUN_BACKOFFICE (the organization admin of the session’s organization, or the super-admin); another ' +
            'organization’s session is 404. Pins: blueprint id, external id, version and content hash, the ' +
            'item-bank pin, the decision rule-set version (and the versions of the decisions read at accept), ' +
            'the language-safety rule-set version, the catalog version. Snapshot: counts and each slot’s frozen ' +
            'items, medium, override code, online queueing and PDF sha256; then the transition log.',
          security,
          params: SessionParams,
          response: { 200: AuditSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        // A back-office caller reaches here without the target having run: tenant first.
        await sessionTarget(request);
        return sessionAudit(sql, request.params.id);
      },
    );
  };
