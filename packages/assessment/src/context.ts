import { defineContext } from '@qiraa/kernel';
import { ASSESSMENT_PROJECTIONS } from './projections';
import { oralReadingRoutes } from './routes/oralReadingRoutes';
import { sheetRoutes } from './routes/sheetRoutes';
import { sittingRoutes } from './routes/sittingRoutes';
import { teacherPageRoutes } from './routes/teacherPageRoutes';
import { voidRoutes } from './routes/voidRoutes';
import { windowRoutes } from './routes/windowRoutes';
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
    await app.register(sheetRoutes(deps));
    await app.register(windowRoutes(deps));
    await app.register(teacherPageRoutes(deps));
    await app.register(voidRoutes(deps));
    await app.register(sittingRoutes(deps));
    await app.register(oralReadingRoutes(deps));
    await app.register(wordListReadRoutes(deps));
  },
});
