import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { assignClassTeacher, removeClassTeacher } from '../commands/classTeachers';
import { callerOf } from '../engine/caller';
import { listClassTeachers } from '../queries/listClassTeachers';
import { tenantTarget } from '../queries/tenantTarget';
import { ClassId } from '../schemas';
import { ClassParams, ClassTeacher, ClassTeacherParams, security, UserIdValue } from '../schemas/routeSchemas';

const tags = ['tenancy'];

/** Class-to-teacher links (ClassTeacher): several teachers per class. */
export const classTeacherRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const target = tenantTarget(deps.sql, { classId: 'class', teacherUserId: 'user' });

    app.get(
      '/classes/:classId/teachers',
      {
        schema: {
          tags,
          summary: 'The teachers of a class',
          security,
          params: ClassParams,
          response: { 200: Type.Array(ClassTeacher), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => listClassTeachers(deps.sql, callerOf(request), request.params.classId),
    );

    app.post(
      '/classes/:classId/teachers',
      {
        config: { anyPermission: ['MANAGE_ORG'], target },
        schema: {
          tags,
          summary: 'Assign a TEACHER of the organization to the class',
          description: '422 reason `not_a_teacher` for another persona; 409 reason `already_assigned`.',
          security,
          params: ClassParams,
          body: Type.Object({ teacherUserId: UserIdValue }),
          response: {
            201: Type.Object({ classId: ClassId, teacherUserId: UserIdValue }),
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await assignClassTeacher(deps.sql, callerOf(request), request.params.classId, request.body.teacherUserId),
          ),
    );

    app.delete(
      '/classes/:classId/teachers/:teacherUserId',
      {
        config: { anyPermission: ['MANAGE_ORG'], target },
        schema: {
          tags,
          summary: 'Remove a teacher from the class',
          security,
          params: ClassTeacherParams,
          response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await removeClassTeacher(deps.sql, callerOf(request), request.params.classId, request.params.teacherUserId);
        return reply.code(204).send(null);
      },
    );
  };
