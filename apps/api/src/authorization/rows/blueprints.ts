import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const MISSING_ID = 'sbb_AAAAAAAAAAAAAA';

const body = (ctx: MatrixContext, organizationId?: string) => ({
  ...(organizationId === undefined ? {} : { organizationId }),
  blueprints: [
    {
      externalId: `matrix-${ctx.unique()}`,
      grade: 2,
      theme: 'market',
      subSkillIds: ['sb_word_building'],
      targetMinutes: 15,
      titleAr: 'نَبْنِي الْكَلِمَاتِ',
      introAr: 'نَقْرَأُ ثُمَّ نَخْتَارُ الْجَوَابَ.',
    },
  ],
});

/** own: organization A; sameOrg: global (read by every back-office caller, changed by the super-admin). */
const organizationFor = (ctx: MatrixContext, target: Target) =>
  target === 'own'
    ? ctx.world.a.id
    : target === 'otherOrg'
      ? ctx.world.b.id
      : target === 'sameOrg'
        ? undefined
        : MISSING.org;

/** A fresh pending blueprint batch in the target's scope, imported by the super-admin. */
async function batchFor(ctx: MatrixContext, target: Target): Promise<{ batchId: string; blueprintId: string }> {
  if (target === 'missing') return { batchId: MISSING_ID, blueprintId: 'sbp_AAAAAAAAAAAAAA' };
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/session-blueprints/import',
    payload: body(ctx, organizationFor(ctx, target)),
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode !== 201) throw new Error(`matrix blueprint import: ${res.statusCode} ${res.body}`);
  const report = res.json();
  return { batchId: report.batchId, blueprintId: report.rows[0].blueprintId };
}

const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** RUN_BACKOFFICE: the super-admin everywhere; an organization admin in their organization (global: read only). */
const backOffice = (ok: number, globalForAdmin = ok) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: globalForAdmin, otherOrg: 404, missing: 404 },
  });

/** Session-blueprint administration (packages/sessions, docs/sessions.md). */
export const blueprintRows: MatrixRow[] = [
  {
    route: 'POST /api/session-blueprints/import',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: '/api/session-blueprints/import',
      body: body(ctx, organizationFor(ctx, target)),
    }),
    expect: backOffice(201),
  },
  {
    route: 'GET /api/session-blueprints/import',
    targets: ['none'],
    request: () => ({ url: '/api/session-blueprints/import' }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
  {
    route: 'GET /api/session-blueprints/import/{batchId}',
    targets,
    request: async (ctx, target) => ({
      url: `/api/session-blueprints/import/${(await batchFor(ctx, target)).batchId}`,
    }),
    expect: backOffice(200),
  },
  {
    route: 'POST /api/session-blueprints/{batchId}/approve',
    targets,
    request: async (ctx, target) => ({
      url: `/api/session-blueprints/${(await batchFor(ctx, target)).batchId}/approve`,
      body: {},
    }),
    expect: backOffice(200, 403),
  },
  {
    route: 'GET /api/session-blueprints/{id}',
    targets,
    request: async (ctx, target) => ({ url: `/api/session-blueprints/${(await batchFor(ctx, target)).blueprintId}` }),
    expect: backOffice(200),
  },
];
