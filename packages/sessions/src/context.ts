import { defineContext } from '@qiraa/kernel';
import { practiceProjection } from './projections/practiceProjection';
import { blueprintRoutes } from './routes/blueprintRoutes';
import { catalogRoutes } from './routes/catalogRoutes';
import { deliveryRoutes } from './routes/deliveryRoutes';
import { linkRoutes } from './routes/linkRoutes';
import { sessionRoutes } from './routes/sessionRoutes';

/**
 * Sessions: the session-blueprint catalog (import, approval) and the teacher's sessions made from it, one
 * slot per student, delivered online or as printed A4 sheets (docs/sessions.md). State tables written by its
 * commands; the online answers are events on `session-<id>` projected by `sessions_practice`.
 */
export const sessionsContext = defineContext({
  name: 'sessions',
  projections: [practiceProjection],
  routes: (deps) => async (app) => {
    await app.register(blueprintRoutes(deps));
    await app.register(catalogRoutes(deps));
    await app.register(sessionRoutes(deps));
    await app.register(deliveryRoutes(deps));
    await app.register(linkRoutes(deps));
  },
});
