import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

const WORDS = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر'];
const MISSING_LIST = 'wl_AAAAAAAAAAAAAA';

async function asSuper(ctx: MatrixContext, method: 'POST' | 'PATCH', url: string, payload: object = {}) {
  const res = await ctx.t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** own: organization A; otherOrg: organization B; missing: an organization that does not exist. */
const organizationFor = (ctx: MatrixContext, target: Target) =>
  target === 'own' ? ctx.world.a.id : target === 'otherOrg' ? ctx.world.b.id : MISSING.org;

const createBody = (ctx: MatrixContext, organizationId?: string) => ({
  externalId: `matrix-${ctx.unique()}`,
  ...(organizationId === undefined ? {} : { organizationId }),
  grade: 1,
  skillId: 'familiar_word_reading',
  window: 'BOY',
  words: WORDS,
});

/**
 * A fresh list per call (state changes are destructive) in the target's scope: own: organization A's;
 * sameOrg: a global list (every back-office caller sees it, only the super-admin changes it); otherOrg:
 * organization B's. Then brought to the state the route starts from.
 */
async function listFor(ctx: MatrixContext, target: Target, state: 'draft' | 'operational' | 'retired') {
  if (target === 'missing') return MISSING_LIST;
  const organizationId = target === 'sameOrg' ? undefined : organizationFor(ctx, target);
  const list = await asSuper(ctx, 'POST', '/api/admin/word-lists', {
    ...createBody(ctx, organizationId),
    publish: state !== 'draft',
  });
  if (state === 'retired') await asSuper(ctx, 'POST', `/api/admin/word-lists/${list.id}/retire`);
  return list.id as string;
}

const collectionTargets: Target[] = ['own', 'otherOrg', 'missing'];
const listTargets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** RUN_BACKOFFICE: the super-admin anywhere; an organization admin in their own organization only. */
const collection = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: ok, otherOrg: ok, missing: 404 },
    admin: { own: ok, otherOrg: 404, missing: 404 },
  });
/** A read of one list: global lists are read by every back-office caller. */
const readList = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
});
/** A change of one list: global lists are changed by the super-admin only (403 for an organization admin). */
const changeList = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
});

/** The word-list builder (packages/content, docs/word-lists.md). */
export const wordListAdminRows: MatrixRow[] = [
  {
    route: 'GET /api/admin/word-lists',
    targets: collectionTargets,
    request: (ctx, target) => ({ url: `/api/admin/word-lists?organizationId=${organizationFor(ctx, target)}` }),
    expect: collection(200),
  },
  {
    route: 'POST /api/admin/word-lists/validate',
    targets: collectionTargets,
    request: (ctx, target) => ({
      url: '/api/admin/word-lists/validate',
      body: createBody(ctx, organizationFor(ctx, target)),
    }),
    expect: collection(200),
  },
  {
    route: 'POST /api/admin/word-lists',
    targets: collectionTargets,
    request: (ctx, target) => ({ url: '/api/admin/word-lists', body: createBody(ctx, organizationFor(ctx, target)) }),
    expect: collection(201),
  },
  {
    route: 'GET /api/admin/word-lists/{id}',
    targets: listTargets,
    request: async (ctx, target) => ({ url: `/api/admin/word-lists/${await listFor(ctx, target, 'operational')}` }),
    expect: readList,
  },
  {
    route: 'PATCH /api/admin/word-lists/{id}',
    targets: listTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/word-lists/${await listFor(ctx, target, 'operational')}`,
      body: { ifVersion: 1, wordsPerRow: 4 },
    }),
    expect: changeList,
  },
  {
    route: 'POST /api/admin/word-lists/{id}/publish',
    targets: listTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/word-lists/${await listFor(ctx, target, 'draft')}/publish`,
      body: {},
    }),
    expect: changeList,
  },
  {
    route: 'POST /api/admin/word-lists/{id}/retire',
    targets: listTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/word-lists/${await listFor(ctx, target, 'operational')}/retire`,
      body: {},
    }),
    expect: changeList,
  },
  {
    route: 'POST /api/admin/word-lists/{id}/restore',
    targets: listTargets,
    request: async (ctx, target) => ({
      url: `/api/admin/word-lists/${await listFor(ctx, target, 'retired')}/restore`,
      body: {},
    }),
    expect: changeList,
  },
];
