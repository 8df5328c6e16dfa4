import { authenticated, type MatrixRow } from '../matrixTypes';

/** The catalogs are global: every back-office caller reads them; no other persona does. */
export const contentCatalogRows: MatrixRow[] = [
  {
    route: 'GET /api/admin/content/catalog',
    targets: ['none'],
    request: () => ({ url: '/api/admin/content/catalog' }),
    expect: authenticated(403, { super: 200, admin: 200 }),
  },
];
