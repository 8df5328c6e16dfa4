import { defineContext } from '@qiraa/kernel';
import { gamificationLedgerProjection } from './projections/ledgerProjection';
import { auditRoutes } from './routes/auditRoutes';
import { ingestRoutes } from './routes/ingestRoutes';
import { leaderboardRoutes } from './routes/leaderboardRoutes';
import { profileRoutes } from './routes/profileRoutes';
import { replayRoutes } from './routes/replayRoutes';
import { rescindRoutes } from './routes/rescindRoutes';

export const gamificationContext = defineContext({
  name: 'gamification',
  projections: [gamificationLedgerProjection],
  routes: (deps) => async (app) => {
    await app.register(ingestRoutes(deps));
    await app.register(profileRoutes(deps));
    await app.register(leaderboardRoutes(deps));
    await app.register(rescindRoutes(deps));
    await app.register(auditRoutes(deps));
    await app.register(replayRoutes(deps));
  },
});
