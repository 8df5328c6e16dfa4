import { defineContext } from '@qiraa/kernel';
import { gamificationLedgerProjection } from './projections/ledgerProjection';
import { ingestRoutes } from './routes/ingestRoutes';
import { profileRoutes } from './routes/profileRoutes';

export const gamificationContext = defineContext({
  name: 'gamification',
  projections: [gamificationLedgerProjection],
  routes: (deps) => async (app) => {
    await app.register(ingestRoutes(deps));
    await app.register(profileRoutes(deps));
  },
});
