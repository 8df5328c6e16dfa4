import type { World } from '@qiraa/app/testing';
import { takeItemBankPin } from '@qiraa/content';
import { insertForm } from '@qiraa/content/testing';
import { inTransaction } from '@qiraa/db';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const MISSING_FORM = 'frm_AAAAAAAAAAAAAA';

/**
 * own: organization A's content; sameOrg: global content (every back-office caller reads it, only the
 * super-admin changes it); otherOrg: organization B's; missing: an id or organization that does not exist.
 */
const organizationFor = (ctx: MatrixContext, target: Target) =>
  target === 'own' ? ctx.world.a.id : target === 'otherOrg' ? ctx.world.b.id : MISSING.org;

/** A fresh operational form per call (a move changes it), with two text1 questions at r1. */
async function formFor(ctx: MatrixContext, target: Target) {
  if (target === 'missing') return { formId: MISSING_FORM, itemIds: ['itm_x', 'itm_y'] };
  const form = await insertForm(ctx.t.db.sql, {
    organizationId: target === 'sameOrg' ? null : organizationFor(ctx, target),
    grade: 2,
    window: 'EOY',
    measures: { text1_comprehension: 2 },
  });
  return { formId: form.formId, itemIds: form.itemIds['text1_comprehension'] as string[] };
}

// The replay rows read one form per target and one pin per world.
const replayFixtures = new WeakMap<World, Promise<{ pin: string; forms: Record<string, string> }>>();
function replayFixture(ctx: MatrixContext) {
  let fixture = replayFixtures.get(ctx.world);
  if (!fixture) {
    fixture = (async () => {
      const forms: Record<string, string> = { missing: MISSING_FORM };
      for (const target of ['own', 'sameOrg', 'otherOrg'] as const) forms[target] = (await formFor(ctx, target)).formId;
      const pin = await inTransaction(ctx.t.db.sql, ({ sql: tx }) => takeItemBankPin(tx, 'initial'));
      return { pin, forms };
    })();
    replayFixtures.set(ctx.world, fixture);
  }
  return fixture;
}

/** The blueprint scope query of a target: sameOrg is the global cell (no query). */
const scopeQuery = (ctx: MatrixContext, target: Target) =>
  target === 'sameOrg' ? '' : `?organizationId=${organizationFor(ctx, target)}`;

/** A cell stored at the target's scope before each delete (the previous call may have removed it). */
async function storeCell(ctx: MatrixContext, target: Target) {
  if (target === 'missing') return;
  await ctx.t.db.sql`
    insert into content_diagnostic_blueprint_cells (organization_id, grade, window_code, kind)
    values (${target === 'sameOrg' ? null : organizationFor(ctx, target)}, 4, 'MOY', 'not_screened')
    on conflict do nothing`;
}

const readTargets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** RUN_BACKOFFICE reads: the super-admin anywhere; an organization admin its own and global content. */
const backOfficeRead = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
});
/** RUN_BACKOFFICE writes: as reads, but global content is the super-admin's only (403 for an organization admin). */
const backOfficeWrite = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
});

/** Screening-form positions, the diagnostic blueprint, the taqyeem preview and the delivery dry run. */
export const contentFormRows: MatrixRow[] = [
  {
    route: 'PUT /api/admin/taqyeem/forms/{formId}/positions',
    targets: readTargets,
    request: async (ctx, target) => {
      const { formId, itemIds } = await formFor(ctx, target);
      return {
        url: `/api/admin/taqyeem/forms/${formId}/positions`,
        body: {
          moves: [
            { itemId: itemIds[0], formPosition: 2, ifMatch: 'r1' },
            { itemId: itemIds[1], formPosition: 1, ifMatch: 'r1' },
          ],
        },
      };
    },
    expect: backOfficeWrite,
  },
  {
    route: 'GET /api/admin/diagnostic-blueprint',
    targets: readTargets,
    request: (ctx, target) => ({ url: `/api/admin/diagnostic-blueprint${scopeQuery(ctx, target)}` }),
    expect: backOfficeRead,
  },
  {
    route: 'GET /api/admin/diagnostic-blueprint/{grade}/{cycle}',
    targets: readTargets,
    request: (ctx, target) => ({ url: `/api/admin/diagnostic-blueprint/2/BOY${scopeQuery(ctx, target)}` }),
    expect: backOfficeRead,
  },
  {
    route: 'PUT /api/admin/diagnostic-blueprint/{grade}/{cycle}',
    targets: readTargets,
    request: (ctx, target) => ({
      url: `/api/admin/diagnostic-blueprint/2/BOY${scopeQuery(ctx, target)}`,
      body: { measures: ['text1_comprehension', 'orf_text'] },
    }),
    expect: backOfficeWrite,
  },
  {
    route: 'DELETE /api/admin/diagnostic-blueprint/{grade}/{cycle}',
    targets: readTargets,
    request: async (ctx, target) => {
      await storeCell(ctx, target);
      return { url: `/api/admin/diagnostic-blueprint/4/MOY${scopeQuery(ctx, target)}` };
    },
    expect: backOfficeWrite,
  },
  {
    route: 'POST /api/admin/diagnostic-blueprint/{grade}/{cycle}/validate',
    targets: readTargets,
    request: (ctx, target) => ({
      url: `/api/admin/diagnostic-blueprint/2/BOY/validate${scopeQuery(ctx, target)}`,
      body: { measures: ['text1_comprehension'] },
    }),
    expect: backOfficeWrite,
  },
  {
    route: 'GET /api/admin/taqyeem/preview',
    targets: ['own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({
      url: `/api/admin/taqyeem/preview?organizationId=${organizationFor(ctx, target)}&grade=2&window=EOY`,
    }),
    expect: backOfficeRead,
  },
  {
    route: 'POST /api/admin/delivery/dry-run-replay',
    targets: readTargets,
    request: async (ctx, target) => {
      const { pin, forms } = await replayFixture(ctx);
      return {
        url: '/api/admin/delivery/dry-run-replay',
        body: { pinnedItemBankId: pin, formServe: { formId: forms[target] } },
      };
    },
    expect: backOfficeRead,
  },
];
