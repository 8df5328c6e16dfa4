import { recordAuditEvent } from '@qiraa/audit';
import { authenticated, type MatrixContext, type MatrixRow, REFUSED, type Target } from '../matrixTypes';

/** An audit entry of the target's organization, projected so the read route can find it. */
async function auditEntryOf(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing') return 'audit:00000000-0000-4000-8000-000000000000';
  const organizationId = target === 'otherOrg' ? ctx.world.b.id : ctx.world.a.id;
  const { auditId } = await recordAuditEvent(ctx.t.runtime.store, {
    eventType: 'class_login_code_rotated',
    organizationId,
    actorUserId: null,
    detail: { detail: 'manual' },
  });
  await ctx.t.runtime.projector.catchUp('audit_log');
  return auditId;
}

const backOffice = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, otherOrg: 404, missing: 404 },
  });

/** The caller's own account (preferences, client logs) and the audit log. */
export const identityAccountRows: MatrixRow[] = [
  {
    route: 'GET /api/users/me/preferences',
    targets: ['none'],
    request: () => ({ url: '/api/users/me/preferences' }),
    expect: authenticated(200),
  },
  {
    route: 'PATCH /api/users/me/preferences',
    targets: ['none'],
    request: () => ({ url: '/api/users/me/preferences', body: { contrast: 'high' } }),
    expect: authenticated(200),
  },
  {
    route: 'POST /api/logs/client',
    targets: ['none'],
    request: () => ({ url: '/api/logs/client', body: { level: 'info', event: 'matrix.probe' } }),
    expect: authenticated(202),
  },
  {
    route: 'GET /api/admin/audit-log',
    targets: ['own', 'otherOrg'],
    request: (ctx, target) => ({
      url: target === 'own' ? '/api/admin/audit-log' : `/api/admin/audit-log?organizationId=${ctx.world.b.id}`,
    }),
    expect: backOffice(200),
  },
  {
    route: 'GET /api/admin/audit-log/{id}',
    targets: ['own', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/admin/audit-log/${await auditEntryOf(ctx, target)}` }),
    expect: backOffice(200),
  },
];
