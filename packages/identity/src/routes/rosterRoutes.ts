import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { PersonNameInput } from '@qiraa/kernel';
import { Type } from 'typebox';
import { deactivateStudent } from '../commands/deactivateStudent';
import { enrollStudent } from '../commands/enrollStudent';
import { callerOf } from '../engine/caller';
import { StudentGenderSchema } from '../engine/studentGender';
import { listRoster } from '../queries/listRoster';
import { classInScope } from '../queries/scope';
import { tenantTarget } from '../queries/tenantTarget';
import { FullNameAr, QuickCode } from '../schemas';
import { ClassParams, ClassStudentParams, security, UserIdValue } from '../schemas/routeSchemas';

const tags = ['tenancy'];

/** The roster of a class: enroll, list, deactivate. quickCodes are 01-99, unique among active students. */
export const rosterRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const manageStudents = {
      anyPermission: ['MANAGE_CLASS_STUDENTS', 'MANAGE_ORG'],
      target: tenantTarget(deps.sql, { classId: 'class', studentId: 'student' }),
    } as const;

    app.post(
      '/classes/:classId/students',
      {
        config: manageStudents,
        schema: {
          tags,
          summary: 'Enroll a new student; quickCode given or the lowest free one',
          description: '409 CONFLICT reason `quick_code_taken` or `class_full` (99 active students).',
          security,
          params: ClassParams,
          body: Type.Object({
            fullNameAr: PersonNameInput,
            quickCode: Type.Optional(QuickCode),
            gender: Type.Optional(StudentGenderSchema),
          }),
          response: {
            201: Type.Object({ studentId: UserIdValue, quickCode: QuickCode }),
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request, reply) => {
        const cls = await classInScope(deps.sql, callerOf(request), request.params.classId, 'manage_students');
        return reply.code(201).send(await enrollStudent(deps.sql, cls, request.body));
      },
    );

    app.get(
      '/classes/:classId/students',
      {
        schema: {
          tags,
          summary: 'The roster: active students by quickCode, then deactivated ones',
          security,
          params: ClassParams,
          response: {
            200: Type.Array(
              Type.Object({
                studentId: UserIdValue,
                fullNameAr: FullNameAr,
                quickCode: QuickCode,
                gender: Type.Optional(StudentGenderSchema),
                active: Type.Boolean(),
              }),
            ),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request) => listRoster(deps.sql, callerOf(request), request.params.classId),
    );

    app.post(
      '/classes/:classId/students/:studentId/deactivate',
      {
        config: manageStudents,
        schema: {
          tags,
          summary: 'Deactivate a student of the class; frees the quickCode',
          security,
          params: ClassStudentParams,
          response: {
            200: Type.Object({ studentId: UserIdValue, active: Type.Literal(false) }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request) =>
        deactivateStudent(
          deps.sql,
          callerOf(request),
          request.params.classId,
          request.params.studentId,
          deps.clock.now(),
        ),
    );
  };
