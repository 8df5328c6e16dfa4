import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { openSessionLink } from '../commands/openSessionLink';
import { security } from '../schemas';

const DateTime = Type.String({ format: 'date-time' });

export const LinkParams = Type.Object({ slotId: Type.String({ pattern: '^sst_[A-Za-z0-9]{14}$' }) });

export const SessionLinkResponse = Type.Object({
  sessionId: Type.String(),
  slotId: Type.String(),
  titleAr: Type.String(),
  introAr: Type.String(),
  themeLabelAr: Type.String(),
  targetMinutes: Type.Integer(),
  queued: Type.Boolean({ description: 'always true: the session is in the child’s practice queue' }),
  progress: Type.Object({
    answered: Type.Integer(),
    total: Type.Integer(),
    completedAt: Type.Union([DateTime, Type.Null()]),
  }),
  practice: Type.String({ description: 'where the child practises it: the practice queue’s next-item' }),
});

/** Said to whoever opens a sheet's link without a token: how to sign in, nothing about the sheet or the child. */
export const SIGN_IN_HINT = {
  message:
    'sign in as the child first: POST /api/auth/student/quickcode with the class code and the child’s two-digit ' +
    'quick code, then open this link again with the access token (Authorization: Bearer <accessToken>)',
  details: [
    { field: 'authorization', issue: 'missing: sign in with the class code and the quick code (student login)' },
  ],
};

/** The printed sheet's QR link: `GET /s/{slotId}` on the public URL is this route (buildApp rewrites it). */
export const linkRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/sessions/links/:slotId',
      {
        config: { signInHint: SIGN_IN_HINT },
        schema: {
          tags: ['sessions'],
          summary: 'Open a printed sheet’s QR link (also served at /s/{slotId}): the session, queued for its child',
          description:
            'The QR code on a printed sheet points at `{QIRAA_PUBLIC_URL}/s/{slotId}`; this service answers that ' +
            'path as this route. With the child’s own access token (student login: class code and quick code) it ' +
            'answers 200 with the session (title, instruction, theme, length, progress) and puts it in the ' +
            'child’s practice queue (the first time; `link_opened_at`). Another child’s token, an unknown slot or ' +
            'another organization’s: 404; an adult’s token of the organization: 403. Without a token: 401 ' +
            'TOKEN_MISSING whose message and details say how to sign in, the same for every slot (nothing about ' +
            'the sheet or the child). The title, instruction and theme pass the language-safety rule set in force ' +
            '(a refused text is served as the filter’s rewrite); the rule set unavailable: 503.',
          security,
          params: LinkParams,
          response: { 200: SessionLinkResponse, ...errorResponses(401, 403, 404, 503) },
        },
      },
      async (request) => openSessionLink(deps, callerOf(request), request.params.slotId, deps.clock.now()),
    );
  };
