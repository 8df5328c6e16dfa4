import { authenticated, type MatrixContext, type MatrixRow, MISSING, type Target } from '../matrixTypes';

const organizationFilter = ({ world }: MatrixContext, target: Target) =>
  target === 'none'
    ? ''
    : `?organizationId=${target === 'own' ? world.a.id : target === 'otherOrg' ? world.b.id : MISSING.org}`;

/** The tenancy lists of the identity context (docs/identity.md, Tenancy lists). */
export const identityListRows: MatrixRow[] = [
  {
    route: 'GET /api/organizations',
    targets: ['none'],
    request: () => ({ url: '/api/organizations' }),
    expect: authenticated(403, { super: 200, admin: 200, manager: 200 }),
  },
  {
    route: 'GET /api/schools',
    targets: ['none', 'own', 'otherOrg', 'missing'],
    request: (ctx, target) => ({ url: `/api/schools${organizationFilter(ctx, target)}` }),
    expect: authenticated(
      { none: 200, own: 200, otherOrg: 404, missing: 404 },
      {
        super: { none: 200, own: 200, otherOrg: 200, missing: 404 },
        parent: { none: 403, own: 403, otherOrg: 404, missing: 404 },
        student: { none: 403, own: 403, otherOrg: 404, missing: 404 },
      },
    ),
  },
];
