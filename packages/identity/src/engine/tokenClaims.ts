import type { Persona } from './permissions';

/** What an access token carries. The tenant context itself is re-read from the database per request. */
export interface AccessClaims {
  sub: string;
  persona: Persona;
  org: string | null;
}

export const ACCESS_TOKEN_SECONDS = 900;
export const JWT_ALGORITHM = 'HS256';
