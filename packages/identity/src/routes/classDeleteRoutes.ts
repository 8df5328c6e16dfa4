import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { deleteClass } from '../commands/deleteClass';
import { callerOf } from '../engine/caller';
import { tenantTarget } from '../queries/tenantTarget';
import { ClassParams, security } from '../schemas/routeSchemas';

/** Deleting a class: only an empty one (no active students). */
export const classDeleteRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.delete(
      '/classes/:classId',
      {
        config: { anyPermission: ['MANAGE_ORG'], target: tenantTarget(deps.sql, { classId: 'class' }) },
        schema: {
          tags: ['tenancy'],
          summary: 'Delete a class with no active students, with its code history and teacher links',
          description: '409 CONFLICT reason `class_has_students` while an active student is enrolled.',
          security,
          params: ClassParams,
          response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        await deleteClass(deps.sql, callerOf(request), request.params.classId);
        return reply.code(204).send(null);
      },
    );
  };
