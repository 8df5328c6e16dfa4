import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';
import { asSuper, studentFor } from './gamificationAdmin';

const all: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];
const MISSING_EVENT = '00000000-0000-4000-8000-000000000000';

/** RUN_BACKOFFICE: the super admin anywhere, an organization admin in their organization only. */
const backOffice = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: ok, otherOrg: 404, missing: 404 },
  });

// One mastery event per target student and world: its stream `mastery-<id>` and its event id.
const mastered = new WeakMap<World, Map<number, Promise<string>>>();
async function masteryEventOf(ctx: MatrixContext, target: Target): Promise<{ streamId: string; eventId: string }> {
  if (target === 'missing') return { streamId: 'mastery-999999', eventId: MISSING_EVENT };
  const studentId = await studentFor(ctx, target);
  let byStudent = mastered.get(ctx.world);
  if (!byStudent) {
    byStudent = new Map();
    mastered.set(ctx.world, byStudent);
  }
  let eventId = byStudent.get(studentId);
  if (!eventId) {
    eventId = asSuper(ctx, '/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `matrix-auditing-${process.pid}-${studentId}`,
      studentId,
      sourceKind: 'band_progression',
      occurredAt: '2026-11-02T08:00:00Z',
      sessionId: 'matrix-auditing',
    }).then((r: { masteryEventId: string }) => r.masteryEventId);
    byStudent.set(studentId, eventId);
  }
  return { streamId: `mastery-${studentId}`, eventId: await eventId };
}

/** The auditors' routes (packages/auditing, docs/auditing.md). */
export const auditingRows: MatrixRow[] = [
  {
    route: 'GET /api/admin/streams',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/admin/streams?studentId=${await studentFor(ctx, target)}` }),
    expect: backOffice(200),
  },
  {
    route: 'GET /api/admin/streams/{streamId}/events',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/admin/streams/${(await masteryEventOf(ctx, target)).streamId}/events`,
    }),
    expect: backOffice(200),
  },
  {
    route: 'GET /api/admin/events/{eventId}',
    targets: all,
    request: async (ctx, target) => ({ url: `/api/admin/events/${(await masteryEventOf(ctx, target)).eventId}` }),
    expect: backOffice(200),
  },
  {
    route: 'GET /api/admin/students/{studentId}/explain',
    targets: all,
    request: async (ctx, target) => ({
      url: `/api/admin/students/${await studentFor(ctx, target)}/explain?what=xpBalance`,
    }),
    expect: backOffice(200),
  },
  {
    route: 'GET /api/admin/events',
    // none: the caller's whole scope; otherwise organizationId names the target's organization.
    targets: ['none', 'own', 'otherOrg', 'missing'],
    request: ({ world }, target) => ({
      url:
        target === 'none'
          ? '/api/admin/events?limit=5'
          : `/api/admin/events?limit=5&organizationId=${target === 'own' ? world.a.id : target === 'otherOrg' ? world.b.id : MISSING.org}`,
    }),
    expect: authenticated(
      { ...REFUSED, none: 403 },
      {
        super: { none: 200, own: 200, otherOrg: 200, missing: 404 },
        admin: { none: 200, own: 200, otherOrg: 404, missing: 404 },
      },
    ),
  },
  {
    route: 'GET /api/admin/events/verify',
    targets: ['none'],
    request: () => ({ url: '/api/admin/events/verify' }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
];
