import { defineContext } from '@qiraa/kernel';
import { reportRoutes } from './routes/reportRoutes';

/**
 * Reports: read-only staff views of a student's assessment history, composed from the other contexts' exports
 * (assessment now; training days and skill status later). It owns no table, no event and no projection.
 */
export const reportsContext = defineContext({
  name: 'reports',
  projections: [],
  routes: (deps) => async (app) => {
    await app.register(reportRoutes(deps));
  },
});
