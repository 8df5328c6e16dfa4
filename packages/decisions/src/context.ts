import { defineContext } from '@qiraa/kernel';
import { recomputeAfterEvidence } from './commands/recomputeAfterEvidence';
import { DECISIONS_PROJECTIONS, DECISIONS_REACTIONS } from './projections';
import { monitoringRoutes } from './routes/monitoringRoutes';
import { profileRoutes } from './routes/profileRoutes';
import { decisionReplayRoutes } from './routes/replayRoutes';
import { skillStatusRoutes } from './routes/skillStatusRoutes';

/**
 * Decisions: what the evidence means. Consumes the assessment's evidence events through a reactor (and, for
 * read-your-writes, right after the request that wrote them), decides with a versioned rule set, and appends
 * decisions to `decision-<studentId>`. Assessment never imports this context.
 */
export const decisionsContext = defineContext({
  name: 'decisions',
  projections: DECISIONS_PROJECTIONS,
  reactions: DECISIONS_REACTIONS,
  plugins: (deps) => recomputeAfterEvidence(deps),
  routes: (deps) => async (app) => {
    await app.register(skillStatusRoutes(deps));
    await app.register(decisionReplayRoutes(deps));
    await app.register(monitoringRoutes(deps));
    await app.register(profileRoutes(deps));
  },
});
