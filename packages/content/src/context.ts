import { defineContext } from '@qiraa/kernel';
import { catalogRoutes } from './routes/catalogRoutes';
import { diagnosticBlueprintRoutes } from './routes/diagnosticBlueprintRoutes';
import { dryRunReplayRoutes } from './routes/dryRunReplayRoutes';
import { formPositionRoutes } from './routes/formPositionRoutes';
import { importRoutes } from './routes/importRoutes';
import { itemRoutes } from './routes/itemRoutes';
import { taqyeemPreviewRoutes } from './routes/taqyeemPreviewRoutes';
import { wordListAdminRoutes } from './routes/wordListAdminRoutes';

/** Content and back office: ordinary tables (no streams); every route needs RUN_BACKOFFICE. */
export const contentContext = defineContext({
  name: 'content',
  projections: [],
  routes: (deps) => async (app) => {
    await app.register(catalogRoutes(deps));
    await app.register(importRoutes(deps));
    await app.register(itemRoutes(deps));
    await app.register(wordListAdminRoutes(deps));
    await app.register(formPositionRoutes(deps));
    await app.register(diagnosticBlueprintRoutes(deps));
    await app.register(taqyeemPreviewRoutes(deps));
    await app.register(dryRunReplayRoutes(deps));
  },
});
