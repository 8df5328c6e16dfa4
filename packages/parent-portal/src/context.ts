import { defineContext } from '@qiraa/kernel';
import { pdfRoutes } from './routes/pdfRoutes';
import { portalRoutes } from './routes/portalRoutes';

/**
 * Parent portal: a gentle, read-only, number-free view of a parent's own children and the parent PDF. It owns no
 * stream and no table: it reads decisions (skill status), assessment (completed diagnostics) and content (labels)
 * through their exports and turns them into labels through allow-listed label tables (docs/parent-portal.md).
 */
export const parentPortalContext = defineContext({
  name: 'parent-portal',
  projections: [],
  routes: (deps) => async (app) => {
    await app.register(portalRoutes(deps));
    await app.register(pdfRoutes(deps));
  },
});
