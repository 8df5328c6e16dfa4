import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { issueTokens } from '../commands/issueTokens';
import { oidcClients } from '../commands/oidcClients';
import { finishOidcSignIn, startOidcSignIn } from '../commands/oidcSignIn';
import { passwordlessOf } from '../engine/passwordlessSettings';

const tags = ['auth'];
const Param = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const ProviderParams = Type.Object({ provider: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }) });
const StartResponse = Type.Object({
  authorizationUrl: Type.String({ description: "the provider's authorization URL, for the browser to go to" }),
  expiresAt: Type.String({ format: 'date-time', description: 'the state is good until then (10 min), once' }),
});
// What the provider appends to the redirect URI (RFC 6749 4.1.2, RFC 9207 iss, and Google's and Entra's extras).
const CallbackQuery = Type.Object(
  {
    state: Type.String({ minLength: 1, maxLength: 512 }),
    code: Param(4096),
    iss: Param(2048),
    error: Param(256),
    error_description: Param(2048),
    error_uri: Param(2048),
    session_state: Param(512),
    scope: Param(2048),
    authuser: Param(16),
    hd: Param(256),
    prompt: Param(64),
  },
  { additionalProperties: false },
);

/**
 * School sign-in with an OpenID Connect provider (authorization code + PKCE). The provider redirects the
 * browser to the front end's registered page, which passes the query on to the callback route.
 */
export const oidcRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const clients = oidcClients(passwordlessOf(deps).oidcProviders);

    app.get(
      '/auth/oidc/:provider/start',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Start a school sign-in: the authorization URL with a single-use state and PKCE challenge',
          params: ProviderParams,
          response: { 200: StartResponse, ...errorResponses(404, 422, 503) },
        },
      },
      async (request) => startOidcSignIn(deps.sql, clients, request.params.provider, deps.clock.now()),
    );

    app.get(
      '/auth/oidc/:provider/callback',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Finish a school sign-in: a verified email of an existing adult gets the token pair',
          params: ProviderParams,
          querystring: CallbackQuery,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 404, 422, 503) },
        },
      },
      async (request) => {
        const caller = await finishOidcSignIn(
          deps.sql,
          clients,
          request.params.provider,
          request.query,
          deps.clock.now(),
        );
        return issueTokens(
          app,
          deps.sql,
          {
            id: caller.userId,
            persona: caller.persona,
            organizationId: caller.organizationId,
          },
          deps.clock.now(),
        );
      },
    );
  };
