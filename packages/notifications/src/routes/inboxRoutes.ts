import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { dismiss, markAllRead, markRead } from '../commands/inbox';
import {
  decodeCursor,
  INBOX_PAGE_DEFAULT,
  INBOX_PAGE_MAX,
  listInbox,
  notificationOf,
  unreadCount,
} from '../queries/inbox';
import { NOTIFICATION_KINDS, SEVERITIES } from '../schemas/notificationKinds';

const literals = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.String({ enum: [...values] }));

const PARENT_LEAVES_OUT = 'left out of a parent’s notifications (no internal id reaches a parent)';
const NotificationSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  recipientUserId: Type.Optional(Type.Integer({ description: PARENT_LEAVES_OUT })),
  kind: Type.String(),
  payload: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'the kind’s structured payload, cut to what the recipient’s persona may see: staff get every field, a ' +
      'parent only the names the text shows (docs/notifications.md lists each kind)',
  }),
  organizationId: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: PARENT_LEAVES_OUT })),
  renderedTitleAr: Type.String(),
  renderedBodyAr: Type.String(),
  severity: literals(SEVERITIES),
  deliveryState: literals(['delivered_in_app', 'read', 'dismissed'] as const),
  sourceEntity: Type.Optional(
    Type.Union([Type.Object({ sourceEntityType: Type.String(), sourceEntityId: Type.String() }), Type.Null()], {
      description: PARENT_LEAVES_OUT,
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  readAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  dismissedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const ListQuery = Type.Object({
  state: Type.Optional(literals(['delivered_in_app', 'read'] as const)),
  kind: Type.Optional(literals(NOTIFICATION_KINDS)),
  severity: Type.Optional(literals(SEVERITIES)),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: INBOX_PAGE_MAX,
      default: INBOX_PAGE_DEFAULT,
      description: `page size, default ${INBOX_PAGE_DEFAULT}, at most ${INBOX_PAGE_MAX}`,
    }),
  ),
});

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const security = [{ bearerAuth: [] }];
const tags = ['notifications'];
const RECIPIENT_ONLY =
  'Authentication only; the caller is the recipient (another user’s notification, even in the same organization, ' +
  'is 404 NOT_FOUND, as is an unknown id). Students have no inbox: they never receive notifications, so their ' +
  'list is empty, their count 0, and read/dismiss of any id is 404.';

/** The recipient-only inbox (spec: Notifications endpoints). No user id in any path. */
export const inboxRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    /** The notification as it stands after a command, for the answer. */
    const currentRow = async (recipient: { userId: number; persona: string }, notificationId: string) => {
      const row = await notificationOf(deps.sql, recipient, notificationId);
      if (!row) throw notFound('notification');
      return row;
    };

    app.get(
      '/notifications',
      {
        schema: {
          tags,
          summary: 'The caller’s notifications',
          description:
            `${RECIPIENT_ONLY} Urgent first, then newest first; dismissed notifications are never listed. ` +
            `Filters: state (delivered_in_app or read), kind, severity. Cursor pagination: pass nextCursor as ` +
            `cursor; page size limit defaults to ${INBOX_PAGE_DEFAULT}, at most ${INBOX_PAGE_MAX} (above is 400/422 ` +
            'validation). A cursor that is not one of ours is 422 VALIDATION_ERROR reason invalid_cursor.',
          security,
          querystring: ListQuery,
          response: {
            200: Type.Object({
              items: Type.Array(NotificationSchema),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(400, 401, 422),
          },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { cursor, limit, ...filter } = request.query;
        const after = cursor === undefined ? null : decodeCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return listInbox(deps.sql, caller, filter, { limit: limit ?? INBOX_PAGE_DEFAULT, after });
      },
    );

    app.get(
      '/notifications/unread-count',
      {
        schema: {
          tags,
          summary: 'How many of the caller’s notifications are unread (delivered_in_app)',
          description: `${RECIPIENT_ONLY} Clients poll this route; there is no push channel.`,
          security,
          response: { 200: Type.Object({ count: Type.Integer({ minimum: 0 }) }), ...errorResponses(401) },
        },
      },
      async (request) => ({ count: await unreadCount(deps.sql, callerOf(request).userId) }),
    );

    app.post(
      '/notifications/:id/read',
      {
        schema: {
          tags,
          summary: 'Mark one of the caller’s notifications read',
          description:
            `${RECIPIENT_ONLY} delivered_in_app → read (readAt set); repeating is a no-op answering the same 200. ` +
            'A dismissed notification cannot be read: 409 CONFLICT reason already_dismissed.',
          security,
          params: IdParams,
          response: { 200: NotificationSchema, ...errorResponses(400, 401, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const notificationId = request.params.id;
        const result = await markRead(deps, { recipientUserId: caller.userId, notificationId });
        if (result.outcome === 'not_found') throw notFound('notification');
        if (result.outcome === 'dismissed') throw conflict('already_dismissed', 'notification is dismissed');
        return currentRow(caller, notificationId);
      },
    );

    app.post(
      '/notifications/:id/dismiss',
      {
        schema: {
          tags,
          summary: 'Dismiss one of the caller’s notifications',
          description:
            `${RECIPIENT_ONLY} delivered_in_app → dismissed (dismissedAt set; never listed again). Dismissed is ` +
            'terminal and repeating is a no-op answering 200. A read notification cannot be dismissed (no such ' +
            'transition in the state table): 409 CONFLICT reason already_read.',
          security,
          params: IdParams,
          response: { 200: NotificationSchema, ...errorResponses(400, 401, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const notificationId = request.params.id;
        const result = await dismiss(deps, { recipientUserId: caller.userId, notificationId });
        if (result.outcome === 'not_found') throw notFound('notification');
        if (result.outcome === 'already_read')
          throw conflict('already_read', 'a read notification cannot be dismissed');
        return currentRow(caller, notificationId);
      },
    );

    app.post(
      '/notifications/mark-all-read',
      {
        schema: {
          tags,
          summary: 'Mark every unread notification of the caller read',
          description: `${RECIPIENT_ONLY} Returns how many rows moved delivered_in_app → read.`,
          security,
          response: { 200: Type.Object({ updated: Type.Integer({ minimum: 0 }) }), ...errorResponses(401) },
        },
      },
      async (request) => markAllRead(deps, callerOf(request).userId),
    );
  };
