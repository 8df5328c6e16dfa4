import { recordAuditEvent } from '@qiraa/audit';
import { importRoster } from '@qiraa/identity';
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

const organizationOf = (ctx: MatrixContext, target: Target) =>
  target === 'missing' ? 'org_000000000000' : target === 'otherOrg' ? ctx.world.b.id : ctx.world.a.id;

/** A stored roster-import report (a dry run of an empty simple CSV) of the target's organization. */
async function rosterImportOf(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing') return 'rim_0000000000000000';
  const report = await importRoster(
    ctx.t.runtime.deps,
    { kind: 'simple-csv', name: 'roster.csv', bytes: new TextEncoder().encode(EMPTY_SIMPLE_CSV) },
    { organizationId: organizationOf(ctx, target), actorUserId: null, dryRun: true, deactivateMissing: false },
  );
  return report.id;
}
const EMPTY_SIMPLE_CSV = 'externalId,schoolId,className,grade,academicYear,fullNameAr,gender,quickCode,parentEmails\n';

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
  {
    route: 'POST /api/admin/roster-imports',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: `/api/admin/roster-imports?dryRun=true&organizationId=${organizationOf(ctx, target)}`,
      body: EMPTY_SIMPLE_CSV,
      headers: { 'content-type': 'text/csv' },
    }),
    expect: backOffice(201),
  },
  {
    route: 'GET /api/admin/roster-imports/{id}',
    targets: ['own', 'otherOrg', 'missing'],
    request: async (ctx, target) => ({ url: `/api/admin/roster-imports/${await rosterImportOf(ctx, target)}` }),
    expect: backOffice(200),
  },
];
