import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { updatePreferences } from '../commands/updatePreferences';
import { callerOf } from '../engine/caller';
import { getPreferences, UserPreferences } from '../queries/getPreferences';

const security = [{ bearerAuth: [] }];
const tags = ['users'];

/** Shared (context.ts `sharedSchemas`): a named component of the OpenAPI document. */
export const UserPreferencesResponse = Type.Object(UserPreferences.properties, { $id: 'UserPreferencesResponse' });

/** Partial and strict: an undeclared key, such as the removed `passkeyPromptSuppressed`, is 400 UNKNOWN_FIELD. */
const PreferencesPatch = Type.Partial(UserPreferences, { minProperties: 1, additionalProperties: false });

export const preferencesRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/users/me/preferences',
      {
        schema: {
          tags,
          summary: "The caller's preferences, with defaults for the ones never set",
          security,
          response: { 200: Type.Ref('UserPreferencesResponse'), ...errorResponses(401) },
        },
      },
      async (request) => getPreferences(deps.sql, callerOf(request).userId),
    );

    app.patch(
      '/users/me/preferences',
      {
        config: { strictBody: true },
        schema: {
          tags,
          summary: 'Change some of the caller’s preferences (strict body: unknown keys are 400 UNKNOWN_FIELD)',
          security,
          body: PreferencesPatch,
          response: { 200: Type.Ref('UserPreferencesResponse'), ...errorResponses(400, 401, 422) },
        },
      },
      async (request) => updatePreferences(deps.sql, callerOf(request).userId, request.body),
    );
  };
