import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { issueTokens } from '../commands/issueTokens';
import { studentHomeLogin } from '../commands/studentHomeLogin';
import { studentQuickcodeLogin } from '../commands/studentQuickcodeLogin';
import { classPreview } from '../queries/classPreview';
import { ClassCode, ClassId, QuickCode } from '../schemas';
import { LoginNameInput } from '../schemas/loginName';

const tags = ['auth'];

const QuickcodeBody = Type.Union([
  Type.Object({ classCode: ClassCode, quickCode: QuickCode }),
  Type.Object({
    classId: ClassId,
    quickCode: QuickCode,
  }),
]);

/** Student sign-in (class code + two-digit quickCode) and the class preview shown before it. Both public. */
export const studentAuthRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/student/quickcode',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Student login: class code (or, outside production, classId) plus the two-digit quickCode',
          description:
            'One answer for every unknown, renewed or lapsed class code and every unknown or inactive quickCode: ' +
            '401 QUICKCODE_INVALID_OR_EXPIRED. Failed attempts are limited per source address: 20 in 15 minutes, ' +
            'then 401 QUICKCODE_RATE_LIMIT with Retry-After; a success resets the source’s window. A wrong code ' +
            'never locks a class: a child typing the right code always signs in. The direct `classId` form is ' +
            'refused in production.',
          body: QuickcodeBody,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const student = await studentQuickcodeLogin(deps.sql, request.body, {
          source: request.ip,
          allowDirect: deps.nodeEnv !== 'production',
          now: deps.clock.now(),
        });
        return issueTokens(
          app,
          deps.sql,
          {
            id: student.id,
            persona: 'STUDENT',
            organizationId: student.organizationId,
          },
          deps.clock.now(),
        );
      },
    );

    app.post(
      '/auth/student/home',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Student home login: the child’s loginName (from the login card) plus their quickCode',
          description:
            'The same token pair as the class-code sign-in, without the class link. loginName: the eight digits ' +
            'printed on the login card (Arabic-Indic or Persian digits, spaces and hyphens accepted). An unknown ' +
            'loginName, a wrong quickCode, an inactive child or a disabled account or organization: 401 ' +
            'QUICKCODE_INVALID_OR_EXPIRED. 10 failures in 15 minutes per loginName lock it: 401 ' +
            'BRUTE_FORCE_LOCKED with Retry-After, even for the right code; a success clears the window. Each ' +
            'attempt also counts in the source address’s quick-code window (401 QUICKCODE_RATE_LIMIT). ' +
            'See docs/identity.md, Home login.',
          body: Type.Object({ loginName: LoginNameInput, quickCode: QuickCode }),
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const student = await studentHomeLogin(deps.sql, request.body, { source: request.ip, now: deps.clock.now() });
        return issueTokens(
          app,
          deps.sql,
          {
            id: student.id,
            persona: 'STUDENT',
            organizationId: student.organizationId,
          },
          deps.clock.now(),
        );
      },
    );

    app.get(
      '/auth/student/class-preview',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'The class behind a class code: class name, grade and school name only',
          querystring: Type.Object({ classCode: ClassCode }),
          response: {
            200: Type.Object({
              className: Type.String(),
              grade: Type.Integer({ minimum: 1, maximum: 4 }),
              schoolName: Type.String(),
            }),
            ...errorResponses(404, 410, 422),
          },
        },
      },
      async (request) => classPreview(deps.sql, request.query.classCode, deps.clock.now()),
    );
  };
