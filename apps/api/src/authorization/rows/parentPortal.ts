import type { World } from '@qiraa/app/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

/** Once per world: a child of organization A no parent of the world is linked to (the sameOrg target). */
const unlinkedChildren = new WeakMap<World, Promise<number>>();
function unlinkedChild(ctx: MatrixContext): Promise<number> {
  let found = unlinkedChildren.get(ctx.world);
  if (!found) {
    found = (async () => {
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { primaryPersona: 'STUDENT', fullNameAr: 'طفل', classId: ctx.world.a.otherClassId },
        headers: { authorization: `Bearer ${ctx.world.superToken}` },
      });
      if (res.statusCode !== 201) throw new Error(`fixture child: ${res.statusCode} ${res.body}`);
      return res.json().id as number;
    })();
    unlinkedChildren.set(ctx.world, found);
  }
  return found;
}

async function childOf(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'sameOrg') return unlinkedChild(ctx);
  if (target === 'otherOrg') return ctx.world.b.studentId;
  return MISSING.user;
}

const children: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/**
 * The portal's gate (any of VIEW_OWN_CHILDREN, VIEW_PARENT_REPORTS, RUN_BACKOFFICE): the linked parent, the
 * organization's administrator, the super-admin; teacher, principal, manager and student 403 (404 first for another
 * organization's or a missing child).
 */
const portalRead = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
  parent: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
});

/** The parent portal (packages/parent-portal, docs/parent-portal.md). */
export const parentPortalRows: MatrixRow[] = [
  {
    route: 'GET /api/parent/children',
    targets: ['none'],
    request: () => ({ url: '/api/parent/children' }),
    expect: authenticated(403, { super: 200, admin: 200, parent: 200 }),
  },
  ...['diagnostics', 'growth', 'recommendations'].map(
    (read): MatrixRow => ({
      route: `GET /api/parent/children/{childId}/${read}`,
      targets: children,
      request: async (ctx, target) => ({ url: `/api/parent/children/${await childOf(ctx, target)}/${read}` }),
      expect: portalRead,
    }),
  ),
  {
    route: 'POST /api/parent/pdf/{childId}',
    targets: children,
    request: async (ctx, target) => ({ url: `/api/parent/pdf/${await childOf(ctx, target)}` }),
    // Also the teacher of one of the child's active classes (printing it for a parent meeting; one export_pdf row).
    expect: {
      ...portalRead,
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    },
  },
];
