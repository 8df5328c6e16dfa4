import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, validationFailed } from '@qiraa/http-kit';
import { callerOf, reachOr404, teachesClass } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { acknowledgeAlert } from '../commands/acknowledgeAlert';
import { ALERT_PAGE_DEFAULT, ALERT_PAGE_MAX, decodeAlertCursor } from '../queries/alertCursor';
import { alertsOf } from '../queries/alertQueries';
import { notClassTeacher, ownedGroup } from '../queries/groupScope';
import { AcknowledgeResponse, AlertIdParams, AlertListQuery, AlertListResponse } from '../schemas/alertSchemas';

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
            'resolved, i.e. open or acknowledged) or `all`; newest first (raisedAt, then alertId). Keyset pages: ' +
            `limit defaults to ${ALERT_PAGE_DEFAULT}, at most ${ALERT_PAGE_MAX}; pass nextCursor as cursor (null on ` +
            'the last page); a cursor this list did not issue is 422 reason invalid_cursor. An unknown or ' +
            'another organization’s class or group is 404; a class the caller does not teach or a group the ' +
            'caller does not own is 403 NOT_CLASS_TEACHER. Kinds: no_progress_at_level (TAL-01), ' +
            'support_review_suggested (TAL-02); a level change resolves them (TAL-03).',
          security,
          querystring: AlertListQuery,
          response: { 200: AlertListResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { classId, groupId, status = 'open', cursor, limit = ALERT_PAGE_DEFAULT } = request.query;
        // The cursor is read after the scope checks: a caller refused the list learns nothing from its 422.
        const page = () => ({ limit, after: cursor === undefined ? null : decodeAlertCursor(cursor) });
        const caller = callerOf(request);
        if ((classId === undefined) === (groupId === undefined)) {
          throw validationFailed([
            { field: classId === undefined ? 'classId' : 'groupId', issue: 'exactly one of classId or groupId' },
          ]);
        }
        if (classId !== undefined) {
          await reachOr404(sql, request, 'class', classId);
          if (!(await teachesClass(sql, classId, caller.userId)))
            throw notClassTeacher('the class is not one the caller teaches');
          return alertsOf(sql, { classId }, status, page());
        }
        await ownedGroup(sql, caller, groupId!);
        return alertsOf(sql, { groupId: groupId! }, status, page());
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
