import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { linkParent, unlinkParent } from '../commands/parentLinks';
import { callerOf } from '../engine/caller';
import { listParents } from '../queries/listParents';
import { tenantTarget } from '../queries/tenantTarget';
import { LinkedParent, StudentParams, StudentParentParams, security, UserIdValue } from '../schemas/routeSchemas';

const tags = ['users'];

/** Parent-to-child links (ParentStudent): several parents per child. */
export const parentLinkRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const target = tenantTarget(deps.sql, { studentId: 'student', parentUserId: 'user' });

    app.post(
      '/students/:studentId/parents',
      {
        config: { anyPermission: ['MANAGE_ORG'], target },
        schema: {
          tags,
          summary: 'Link a PARENT of the organization to a child',
          description: '422 reason `not_a_parent` for another persona; 409 reason `already_linked`.',
          security,
          params: StudentParams,
          body: Type.Object({ parentUserId: UserIdValue }),
          response: {
            201: Type.Object({ studentId: UserIdValue, parentUserId: UserIdValue }),
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await linkParent(deps.sql, callerOf(request), request.params.studentId, request.body.parentUserId)),
    );

    app.get(
      '/students/:studentId/parents',
      {
        config: { anyPermission: ['MANAGE_ORG', 'VIEW_OWN_CLASSES'], target },
        schema: {
          tags,
          summary: "A child's linked parents (organization admins, teachers of the child's class)",
          security,
          params: StudentParams,
          response: { 200: Type.Array(LinkedParent), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => listParents(deps.sql, callerOf(request), request.params.studentId),
    );

    app.delete(
      '/students/:studentId/parents/:parentUserId',
      {
        config: { anyPermission: ['MANAGE_ORG'], target },
        schema: {
          tags,
          summary: 'Remove a parent-to-child link',
          security,
          params: StudentParentParams,
          response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await unlinkParent(deps.sql, callerOf(request), request.params.studentId, request.params.parentUserId);
        return reply.code(204).send(null);
      },
    );
  };
