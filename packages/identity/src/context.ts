import { defineContext } from '@qiraa/kernel';
import { authPlugin } from './auth/authPlugin';
import { AuthTokensResponse } from './schemas';
import { ClassResponse } from './tenancySchemas';
import { authRoutes } from './routes/authRoutes';
import { tenancyRoutes } from './routes/tenancyRoutes';

export const identityContext = defineContext({
  name: 'identity',
  projections: [],
  sharedSchemas: [AuthTokensResponse, ClassResponse],
  plugins: (deps) => authPlugin(deps),
  routes: (deps) => async (app) => {
    await app.register(authRoutes(deps));
    await app.register(tenancyRoutes(deps));
  },
});
