import { authenticated, type MatrixRow, type Target } from '../matrixTypes';
import { backOffice, batchFor } from './contentImport';

const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/** Items come from a fresh pending import batch of the target's scope (sameOrg: global content). */
export const contentItemRows: MatrixRow[] = [
  {
    route: 'GET /api/items',
    targets: ['none'],
    filters: ['subSkillId', 'screeningFormId'],
    request: () => ({ url: '/api/items' }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
  {
    route: 'GET /api/items/{id}',
    targets,
    request: async (ctx, target) => ({ url: `/api/items/${(await batchFor(ctx, target)).itemId}` }),
    expect: backOffice(200),
  },
  {
    route: 'PATCH /api/items/{id}',
    targets,
    // A pending item is edited in place; the ETag of a fresh item is r1 (sent as body ifMatch: rows carry no headers).
    request: async (ctx, target) => ({
      url: `/api/items/${(await batchFor(ctx, target)).itemId}`,
      body: { hintAr: 'انظر إلى الحرف الأول', ifMatch: 'r1' },
    }),
    expect: backOffice(200, 403),
  },
];
