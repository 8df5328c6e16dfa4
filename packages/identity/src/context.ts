import { defineContext } from '@qiraa/kernel';
import { AuditLogEntry, auditLogRoutes } from './routes/auditLogRoutes';
import { authPlugin } from './routes/authPlugin';
import { authRoutes } from './routes/authRoutes';
import { classCodeRoutes } from './routes/classCodeRoutes';
import { classDeleteRoutes } from './routes/classDeleteRoutes';
import { classTeacherRoutes } from './routes/classTeacherRoutes';
import { clientLogRoutes } from './routes/clientLogRoutes';
import { contextFlagRoutes } from './routes/contextFlagRoutes';
import { handoffRoutes } from './routes/handoffRoutes';
import { oidcRoutes } from './routes/oidcRoutes';
import { parentLinkRoutes } from './routes/parentLinkRoutes';
import { passkeyRoutes } from './routes/passkeyRoutes';
import { preferencesRoutes, UserPreferencesResponse } from './routes/preferencesRoutes';
import { rosterImportRoutes } from './routes/rosterImportRoutes';
import { rosterRoutes } from './routes/rosterRoutes';
import { studentAuthRoutes } from './routes/studentAuthRoutes';
import { tenancyListRoutes } from './routes/tenancyListRoutes';
import { tenancyRoutes } from './routes/tenancyRoutes';
import { expiredSecretsSchedule } from './schedules/expiredSecretsSchedule';
import { AuthTokensResponse } from './schemas';
import { RosterImportReport } from './schemas/rosterImportSchemas';
import { ClassResponse } from './schemas/tenancySchemas';

export const identityContext = defineContext({
  name: 'identity',
  projections: [],
  schedules: [expiredSecretsSchedule],
  sharedSchemas: [AuthTokensResponse, ClassResponse, UserPreferencesResponse, AuditLogEntry, RosterImportReport],
  plugins: (deps) => authPlugin(deps),
  routes: (deps) => async (app) => {
    await app.register(authRoutes(deps));
    await app.register(tenancyRoutes(deps));
    await app.register(tenancyListRoutes(deps));
    await app.register(preferencesRoutes(deps));
    await app.register(clientLogRoutes(deps));
    await app.register(auditLogRoutes(deps));
    await app.register(studentAuthRoutes(deps));
    await app.register(classCodeRoutes(deps));
    await app.register(classTeacherRoutes(deps));
    await app.register(classDeleteRoutes(deps));
    await app.register(rosterRoutes(deps));
    await app.register(rosterImportRoutes(deps));
    await app.register(parentLinkRoutes(deps));
    await app.register(handoffRoutes(deps));
    await app.register(passkeyRoutes(deps));
    await app.register(oidcRoutes(deps));
    await app.register(contextFlagRoutes(deps));
  },
});
