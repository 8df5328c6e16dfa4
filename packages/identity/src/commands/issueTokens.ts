import type { AnySql } from '@qiraa/db';
import type { FastifyInstance } from 'fastify';
import type { Persona } from '../engine/permissions';
import { ACCESS_TOKEN_SECONDS, type AccessClaims } from '../engine/tokenClaims';
import { startFamily } from './refreshTokens';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
}

export function accessTokenFor(
  app: FastifyInstance,
  user: { id: number; persona: Persona; organizationId: string | null },
) {
  const claims: AccessClaims = { sub: String(user.id), persona: user.persona, org: user.organizationId };
  return app.jwt.sign(claims);
}

/**
 * A new login: an access token and the first refresh token of a new family. `now` is the request's
 * `deps.clock` reading: the family expires FAMILY_LIFETIME_DAYS after it. (The access token's `iat`/`exp` stay
 * on the wall clock: @fastify/jwt signs and verifies both with it, so a shift cannot skew them.)
 */
export async function issueTokens(
  app: FastifyInstance,
  sql: AnySql,
  user: { id: number; persona: Persona; organizationId: string | null },
  now: Date,
): Promise<IssuedTokens> {
  return {
    accessToken: accessTokenFor(app, user),
    refreshToken: await startFamily(sql, user.id, now),
    expiresIn: ACCESS_TOKEN_SECONDS,
    tokenType: 'Bearer',
  };
}
