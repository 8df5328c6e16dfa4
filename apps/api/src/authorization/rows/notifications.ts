import { randomUUID } from 'node:crypto';
import { dispatch, SAMPLE_PAYLOADS } from '@qiraa/notifications';
import { authenticated, type MatrixContext, type MatrixRow, type Target } from '../matrixTypes';

/**
 * own: a fresh notification of org A's teacher; sameOrg: one of org A's second teacher (same organization,
 * another recipient); otherOrg: one of org B's teacher; missing: an id that does not exist.
 */
async function notificationFor(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing') return randomUUID();
  let recipientUserId: number;
  if (target === 'own') recipientUserId = ctx.world.a.teacherId;
  else if (target === 'otherOrg') recipientUserId = ctx.world.b.teacherId;
  else {
    const [row] = await ctx.t.db.sql<{ id: string }[]>`select id from users where email = 'teacher2@amal-jo.test'`;
    recipientUserId = Number(row!.id);
  }
  const result = await dispatch(ctx.t.runtime.deps, {
    recipientUserId,
    kind: 'skill_alert_assigned',
    payload: SAMPLE_PAYLOADS.skill_alert_assigned,
  });
  if (result.outcome !== 'dispatched') throw new Error(`matrix notification not dispatched: ${result.outcome}`);
  return result.notificationId;
}

const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];
/** Only the recipient reaches a notification; everyone else (super included) gets 404. */
const recipientOnly = authenticated(404, { teacher: { own: 200, sameOrg: 404, otherOrg: 404, missing: 404 } });

export const notificationRows: MatrixRow[] = [
  {
    route: 'GET /api/notifications',
    targets: ['none'],
    request: () => ({ url: '/api/notifications' }),
    expect: authenticated(200),
  },
  {
    route: 'GET /api/notifications/unread-count',
    targets: ['none'],
    request: () => ({ url: '/api/notifications/unread-count' }),
    expect: authenticated(200),
  },
  {
    route: 'POST /api/notifications/mark-all-read',
    targets: ['none'],
    request: () => ({ url: '/api/notifications/mark-all-read', body: {} }),
    expect: authenticated(200),
  },
  {
    route: 'POST /api/notifications/{id}/read',
    targets,
    request: async (ctx, target) => ({
      url: `/api/notifications/${await notificationFor(ctx, target)}/read`,
      body: {},
    }),
    expect: recipientOnly,
  },
  {
    route: 'POST /api/notifications/{id}/dismiss',
    targets,
    request: async (ctx, target) => ({
      url: `/api/notifications/${await notificationFor(ctx, target)}/dismiss`,
      body: {},
    }),
    expect: recipientOnly,
  },
];
