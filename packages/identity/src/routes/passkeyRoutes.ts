import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'typebox';
import { deletePasskey } from '../commands/deletePasskey';
import { issueTokens } from '../commands/issueTokens';
import { passkeyAuthenticationOptions, verifyPasskeyAuthentication } from '../commands/passkeyAuthentication';
import { passkeyRegistrationOptions, verifyPasskeyRegistration } from '../commands/passkeyRegistration';
import { callerOf } from '../engine/caller';
import { passwordlessOf } from '../engine/passwordlessSettings';
import { PERSONAS } from '../engine/permissions';
import { passkeysOf } from '../queries/passkeys';
import {
  AuthenticationResponse,
  CreationOptions,
  CredentialParams,
  EmptyBody,
  PasskeyResponse,
  RegistrationResponse,
  RequestOptions,
} from '../schemas/passkeySchemas';

const tags = ['auth'];
const security = [{ bearerAuth: [] }];

/** Passkeys are for adults (students sign in with their codes): a student is 403 before the body is validated. */
const ADULTS = PERSONAS.filter((persona) => persona !== 'STUDENT');

/** Passkeys (WebAuthn) under /api/auth/webauthn: register, sign in, list and delete one's own. */
export const passkeyRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const settings = passwordlessOf(deps);

    app.post(
      '/auth/webauthn/registration/options',
      {
        config: { anyPersona: ADULTS },
        schema: {
          tags,
          summary: 'Creation options for a new passkey of the caller (adults); the challenge is single-use, 5 min',
          security,
          body: Type.Optional(EmptyBody),
          response: { 200: CreationOptions, ...errorResponses(401, 403, 422) },
        },
      },
      async (request) => passkeyRegistrationOptions(deps.sql, settings, callerOf(request), deps.clock.now()),
    );

    app.post(
      '/auth/webauthn/registration/verify',
      {
        config: { anyPersona: ADULTS },
        schema: {
          tags,
          summary: 'Verify the attestation and store the passkey; used or expired challenge 401 STATE_EXPIRED',
          security,
          body: Type.Object({ response: RegistrationResponse }, { additionalProperties: false }),
          response: { 201: PasskeyResponse, ...errorResponses(401, 403, 409, 422) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await verifyPasskeyRegistration(
              deps.sql,
              settings,
              callerOf(request),
              request.body.response as RegistrationResponseJSON,
              deps.clock.now(),
            ),
          ),
    );

    app.post(
      '/auth/webauthn/authentication/options',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Request options for a passkey sign-in (discoverable credentials; single-use challenge, 5 min)',
          body: Type.Optional(EmptyBody),
          response: { 200: RequestOptions, ...errorResponses(422) },
        },
      },
      async () => passkeyAuthenticationOptions(deps.sql, settings, deps.clock.now()),
    );

    app.post(
      '/auth/webauthn/authentication/verify',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Sign in with a passkey assertion: the same token pair as password login',
          body: Type.Object({ response: AuthenticationResponse }, { additionalProperties: false }),
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const caller = await verifyPasskeyAuthentication(
          deps.sql,
          settings,
          request.body.response as AuthenticationResponseJSON,
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

    app.get(
      '/auth/webauthn/credentials',
      {
        schema: {
          tags,
          summary: "The caller's passkeys",
          security,
          response: { 200: Type.Array(PasskeyResponse), ...errorResponses(401) },
        },
      },
      async (request) => passkeysOf(deps.sql, callerOf(request).userId),
    );

    app.delete(
      '/auth/webauthn/credentials/:credentialId',
      {
        schema: {
          tags,
          summary: "Delete one of the caller's passkeys; anyone else's is 404",
          security,
          params: CredentialParams,
          response: { 204: Type.Null(), ...errorResponses(401, 404, 422) },
        },
      },
      async (request, reply) => {
        await deletePasskey(deps.sql, callerOf(request).userId, request.params.credentialId);
        return reply.code(204).send(null);
      },
    );
  };
