import { defineContext } from '@qiraa/kernel';
import { notificationsInboxProjection } from './projections/inboxProjection';
import { inboxRoutes } from './routes/inboxRoutes';

export const notificationsContext = defineContext({
  name: 'notifications',
  projections: [notificationsInboxProjection],
  routes: (deps) => async (app) => {
    await app.register(inboxRoutes(deps));
  },
});
