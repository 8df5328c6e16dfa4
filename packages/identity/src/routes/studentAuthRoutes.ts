import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { issueTokens } from '../auth/issueTokens';
import { studentQuickcodeLogin } from '../commands/studentQuickcodeLogin';
import { classPreview } from '../queries/classPreview';
import { ClassCode, ClassId, QuickCode } from '../schemas';

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
            '401 QUICKCODE_INVALID_OR_EXPIRED. Failed attempts are limited per source address and per class ' +
            'code (401 QUICKCODE_RATE_LIMIT with Retry-After). The direct `classId` form is refused in production.',
          body: QuickcodeBody,
          response: { 200: Type.Ref('AuthTokensResponse'), ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const student = await studentQuickcodeLogin(deps.sql, request.body, {
          source: request.ip,
          allowDirect: deps.nodeEnv !== 'production',
        });
        return issueTokens(app, deps.sql, {
          id: student.id,
          persona: 'STUDENT',
          organizationId: student.organizationId,
        });
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
      async (request) => classPreview(deps.sql, request.query.classCode),
    );
  };
