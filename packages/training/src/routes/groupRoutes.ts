import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { archiveGroup, createGroup, groupsOwnedBy, setGroupMembers } from '../commands/groupCommands';
import { trainingTarget } from '../queries/groupScope';
import {
  CreateGroupBody,
  GroupIdParams,
  SetMembersBody,
  SupportGroup,
  SupportGroupList,
} from '../schemas/groupSchemas';

const security = [{ bearerAuth: [] }];
const tags = ['training'];

/** Support groups (docs/training-alerts.md, Support groups): a teacher's own set of children it teaches. */
export const groupRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    // Support groups are a teacher's (VIEW_OWN_CLASSES): anyone else is 403 before the body is validated, after
    // the tenant target (another organization's group or child is 404).
    const config = { anyPermission: ['VIEW_OWN_CLASSES'] as const, target: trainingTarget(sql) };
    app.post(
      '/training/groups',
      {
        config,
        schema: {
          tags,
          summary: 'Create a support group of children the teacher teaches',
          description:
            'A teacher (VIEW_OWN_CLASSES) groups children of their own classes; the group is theirs alone (alerts ' +
            'by `groupId`, the training-day reach). Another organization’s or an unknown child is 404; a child the ' +
            'teacher does not teach, or a caller who is no teacher, 403.',
          security,
          body: CreateGroupBody,
          response: { 201: SupportGroup, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await createGroup(sql, callerOf(request), request.body)),
    );
    app.get(
      '/training/groups',
      {
        config,
        schema: {
          tags,
          summary: 'The caller’s own support groups',
          description:
            'The live (not archived) groups the caller owns, oldest first. A teacher’s (VIEW_OWN_CLASSES); anyone ' +
            'else 403.',
          security,
          response: { 200: SupportGroupList, ...errorResponses(401, 403) },
        },
      },
      async (request) => ({ items: await groupsOwnedBy(sql, callerOf(request)) }),
    );
    app.put(
      '/training/groups/:groupId/members',
      {
        config,
        schema: {
          tags,
          summary: 'Replace the members of a support group',
          description:
            'The owner only (another teacher’s group 403 NOT_CLASS_TEACHER; another organization’s or an unknown ' +
            'group 404); every child must be one the owner teaches.',
          security,
          params: GroupIdParams,
          body: SetMembersBody,
          response: { 200: SupportGroup, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => setGroupMembers(sql, callerOf(request), request.params.groupId, request.body.studentIds),
    );
    app.delete(
      '/training/groups/:groupId',
      {
        config,
        schema: {
          tags,
          summary: 'Archive a support group',
          description: 'The owner only; the group leaves every list and scope (its children’s alerts stay). 204.',
          security,
          params: GroupIdParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await archiveGroup(sql, callerOf(request), request.params.groupId);
        return reply.code(204).send(null);
      },
    );
  };
