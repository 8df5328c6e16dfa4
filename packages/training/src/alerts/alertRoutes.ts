import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, validationFailed } from '@qiraa/http-kit';
import { callerOf, reachOr404 } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { notClassTeacher, ownedGroup } from '../groups/groupScope';
import { acknowledgeAlert } from './acknowledgeAlert';
import { alertsOf } from './alertQueries';
import { AcknowledgeResponse, AlertIdParams, AlertListQuery, AlertListResponse } from './alertSchemas';

const security = [{ bearerAuth: [] }];
const tags = ['training'];

/** GET /api/training/alerts and POST /api/training/alerts/{alertId}/acknowledge (docs/training-alerts.md). */
export const alertRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    app.get(
      '/training/alerts',
      {
        schema: {
          tags,
          summary: 'Training alerts of a class the caller teaches or of a support group the caller owns',
          description:
            'Exactly one of `classId` or `groupId` (else 422 VALIDATION_ERROR). `status` `open` (default: not ' +
            'resolved, i.e. open or acknowledged) or `all`; newest first (raisedAt), at most 500. An unknown or ' +
            'another organization’s class or group is 404; a class the caller does not teach or a group the ' +
            'caller does not own is 403 NOT_CLASS_TEACHER. Kinds: no_progress_at_level (TAL-01), ' +
            'support_review_suggested (TAL-02); a level change resolves them (TAL-03).',
          security,
          querystring: AlertListQuery,
          response: { 200: AlertListResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { classId, groupId, status = 'open' } = request.query;
        const caller = callerOf(request);
        if ((classId === undefined) === (groupId === undefined)) {
          throw validationFailed([
            { field: classId === undefined ? 'classId' : 'groupId', issue: 'exactly one of classId or groupId' },
          ]);
        }
        if (classId !== undefined) {
          await reachOr404(sql, request, 'class', classId);
          const [held] = await sql`
            select 1 from class_teachers where class_id = ${classId} and teacher_user_id = ${caller.userId}`;
          if (!held) throw notClassTeacher('the class is not one the caller teaches');
          return { items: await alertsOf(sql, { classId }, status) };
        }
        await ownedGroup(sql, caller, groupId!);
        return { items: await alertsOf(sql, { groupId: groupId! }, status) };
      },
    );
    app.post(
      '/training/alerts/:alertId/acknowledge',
      {
        schema: {
          tags,
          summary: 'Acknowledge a training alert',
          description:
            'A teacher who reaches the child (one of its classes, or a support group of theirs holding it) records ' +
            'once that they saw the alert; the level is unchanged and no mastery event is written. 409 reason ' +
            '`already_resolved` (checked first) or `already_acknowledged`; 403 when the teacher no longer reaches ' +
            'the child (or the caller is no teacher); 404 unknown or another organization’s alert.',
          security,
          params: AlertIdParams,
          response: { 200: AcknowledgeResponse, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => acknowledgeAlert(deps, callerOf(request), request.params.alertId),
    );
  };
