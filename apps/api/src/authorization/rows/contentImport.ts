import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const MISSING_BATCH = 'bat_AAAAAAAAAAAAAA';
const SOURCE = { origin: 'authored_in_house', reference: 'مصفوفة الصلاحيات' };
const SIGNOFF = { agreementCode: 'AGR-MATRIX', signedByName: 'مراجع', signedAt: '2026-01-15T09:00:00Z' };

/** A one-item batch body; organizationId undefined imports global content (as the super-admin). */
const importBody = (ctx: MatrixContext, organizationId?: string) => ({
  contentKind: 'item',
  ...(organizationId === undefined ? {} : { organizationId }),
  sourceDeclared: SOURCE,
  agreementSignoff: SIGNOFF,
  items: [
    {
      external_id: `matrix-${ctx.unique()}`,
      grade: 1,
      sub_skill_id: 'fw_common_words',
      item_pattern: 'word_match',
      training_level: 1,
      stem_ar: 'اختر الكلمة المطابقة: بيت',
      options: [
        { key: 'a', text_ar: 'بيت' },
        { key: 'b', text_ar: 'بنت' },
      ],
      correct_option_key: 'a',
    },
  ],
});

/** own: organization A; sameOrg: global content (seen by every back-office caller, changed by the super-admin). */
const organizationFor = (ctx: MatrixContext, target: Target) =>
  target === 'own'
    ? ctx.world.a.id
    : target === 'otherOrg'
      ? ctx.world.b.id
      : target === 'sameOrg'
        ? undefined
        : MISSING.org;

/** A fresh pending batch in the target's scope, imported by the super-admin (approval is destructive). */
export async function batchFor(ctx: MatrixContext, target: Target): Promise<{ batchId: string; itemId: string }> {
  if (target === 'missing') return { batchId: MISSING_BATCH, itemId: 'itm_AAAAAAAAAAAAAA' };
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/items/import',
    payload: importBody(ctx, organizationFor(ctx, target)),
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode !== 201) throw new Error(`fixture import: ${res.statusCode} ${res.body}`);
  const report = res.json();
  return { batchId: report.batchId, itemId: report.rows[0].itemBankId };
}

const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/**
 * RUN_BACKOFFICE: the super-admin everywhere; an organization admin in their organization, reading global
 * content (sameOrg) but not changing it (403); another organization is 404.
 */
export const backOffice = (ok: number, globalForAdmin = ok) =>
  authenticated(REFUSED, {
    super: { own: ok, sameOrg: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, sameOrg: globalForAdmin, otherOrg: 404, missing: 404 },
  });

export const contentImportRows: MatrixRow[] = [
  {
    route: 'POST /api/items/import',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({ url: '/api/items/import', body: importBody(ctx, organizationFor(ctx, target)) }),
    expect: backOffice(201),
  },
  {
    route: 'GET /api/items/import',
    targets: ['none'],
    request: () => ({ url: '/api/items/import' }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
  {
    route: 'GET /api/items/import/{batchId}',
    targets,
    request: async (ctx, target) => ({ url: `/api/items/import/${(await batchFor(ctx, target)).batchId}` }),
    expect: backOffice(200),
  },
  {
    route: 'POST /api/items/import/{batchId}/approve',
    targets,
    request: async (ctx, target) => ({
      url: `/api/items/import/${(await batchFor(ctx, target)).batchId}/approve`,
      body: {},
    }),
    expect: backOffice(200, 403),
  },
];
