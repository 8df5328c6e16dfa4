export { type Caller, callerOf, holds, isSuperAdmin } from './auth/caller';
export { resolveJwtSecret } from './auth/jwtSecret';
export { identityContext } from './context';
export { PERMISSIONS, PERSONAS, type Permission, type Persona, permissionsFor } from './permissions';
