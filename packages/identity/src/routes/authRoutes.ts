import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { accessTokenFor, issueTokens } from '../commands/issueTokens';
import { login } from '../commands/login';
import { revokeFamilyOf, rotateRefreshToken } from '../commands/refreshTokens';
import { registerFirstAdmin } from '../commands/registerFirstAdmin';
import { callerOf } from '../engine/caller';
import { ACCESS_TOKEN_SECONDS } from '../engine/tokenClaims';
import { loadCaller } from '../queries/loadCaller';
import { me } from '../queries/me';
import { LoginBody, MeResponse, RefreshBody, RegisterBody, RegisterResponse } from '../schemas';

const tags = ['auth'];

export const authRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/register',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Register the very first user, a super-scope ADMIN; closed afterwards',
          body: RegisterBody,
          response: { 201: RegisterResponse, ...errorResponses(403, 422) },
        },
      },
      async (request, reply) => {
        const user = await registerFirstAdmin(deps.sql, request.body);
        const tokens = await issueTokens(
          app,
          deps.sql,
          { id: user.id, persona: 'ADMIN', organizationId: null },
          deps.clock.now(),
        );
        return reply.code(201).send({
          user: { id: user.id, email: user.email, primaryPersona: 'ADMIN' as const, organizationId: null },
          tokens,
        });
      },
    );

    app.post(
      '/auth/login',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Adult login with email and password',
          body: LoginBody,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const now = deps.clock.now();
        const user = await login(deps.sql, request.body.email, request.body.password, now);
        return issueTokens(
          app,
          deps.sql,
          { id: user.id, persona: user.persona, organizationId: user.organizationId },
          now,
        );
      },
    );

    app.post(
      '/auth/refresh',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Rotate a refresh token: new pair, the used token dies; reuse revokes the session',
          body: RefreshBody,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const result = await rotateRefreshToken(deps.sql, request.body.refreshToken, deps.clock.now());
        if (result.kind === 'unknown') throw new ApiError(401, 'TOKEN_INVALID', 'refresh token not recognized');
        if (result.kind !== 'rotated') throw new ApiError(401, 'SESSION_REVOKED', 'session revoked; log in again');
        const caller = await loadCaller(deps.sql, result.userId);
        if (!caller) throw new ApiError(401, 'SESSION_REVOKED', 'the account or its organization is disabled');
        return {
          accessToken: accessTokenFor(app, {
            id: caller.userId,
            persona: caller.persona,
            organizationId: caller.organizationId,
          }),
          refreshToken: result.refreshToken,
          expiresIn: ACCESS_TOKEN_SECONDS,
          tokenType: 'Bearer' as const,
        };
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'End the session: the refresh token family is revoked',
          body: RefreshBody,
          response: { 204: Type.Null(), ...errorResponses(401, 422) },
        },
      },
      async (request, reply) => {
        if (!(await revokeFamilyOf(deps.sql, request.body.refreshToken, deps.clock.now()))) {
          throw new ApiError(401, 'TOKEN_INVALID', 'refresh token not recognized');
        }
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/auth/me',
      {
        schema: {
          tags,
          summary: 'The caller, their permission set and classes',
          security: [{ bearerAuth: [] }],
          response: { 200: MeResponse, ...errorResponses(401) },
        },
      },
      async (request) => me(deps.sql, callerOf(request)),
    );
  };
