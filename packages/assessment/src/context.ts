import { defineContext } from '@qiraa/kernel';
import { ASSESSMENT_PROJECTIONS } from './projections';
import { oralReadingRoutes } from './routes/oralReadingRoutes';
import { wordListReadRoutes } from './routes/wordListReadRoutes';

/**
 * Assessment: screening windows, digital diagnostic sittings, oral reading, word-list reads, voids, the
 * teacher assessment page and the printed sheets. Evidence is event-sourced (one stream per attempt).
 */
export const assessmentContext = defineContext({
  name: 'assessment',
  projections: ASSESSMENT_PROJECTIONS,
  routes: (deps) => async (app) => {
    // Each route group registers here, one line each.
    await app.register(oralReadingRoutes(deps));
    await app.register(wordListReadRoutes(deps));
  },
});
