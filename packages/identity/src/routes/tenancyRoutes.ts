import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { createClass } from '../commands/createClass';
import { createOrganization } from '../commands/createOrganization';
import { createSchool } from '../commands/createSchool';
import { createUser } from '../commands/createUser';
import { callerOf, holds } from '../engine/caller';
import { listClasses } from '../queries/listClasses';
import { requireAny } from '../queries/scope';
import { tenantTarget } from '../queries/tenantTarget';
import { SchoolId } from '../schemas';
import {
  ClassBody,
  CreateUserBody,
  OrganizationBody,
  OrgResponse,
  SchoolBody,
  SchoolResponse,
  UserCreatedResponse,
} from '../schemas/tenancySchemas';

const security = [{ bearerAuth: [] }];

export const tenancyRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const userTarget = tenantTarget(deps.sql, { organizationId: 'organization', schoolId: 'school', classId: 'class' });

    app.post(
      '/organizations',
      {
        config: { anyPermission: ['SUPER_ADMIN'] },
        schema: {
          tags: ['tenancy'],
          summary: 'Create an organization (super-scope administrator)',
          security,
          body: OrganizationBody,
          response: { 201: OrgResponse, ...errorResponses(401, 403, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await createOrganization(deps.sql, request.body)),
    );

    app.post(
      '/schools',
      {
        config: { anyPermission: ['MANAGE_ORG'], target: tenantTarget(deps.sql, { organizationId: 'organization' }) },
        schema: {
          tags: ['tenancy'],
          summary: "Create a school; its country must equal the organization's",
          security,
          body: SchoolBody,
          response: { 201: SchoolResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await createSchool(deps.sql, callerOf(request), request.body)),
    );

    app.post(
      '/classes',
      {
        config: { anyPermission: ['MANAGE_ORG'], target: tenantTarget(deps.sql, { schoolId: 'school' }) },
        schema: {
          tags: ['tenancy'],
          summary: 'Create a class; mints its login code, valid 365 days',
          security,
          body: ClassBody,
          response: { 201: Type.Ref('ClassResponse'), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createClass(deps.sql, callerOf(request), request.body, deps.clock.now())),
    );

    app.get(
      '/classes',
      {
        schema: {
          tags: ['tenancy'],
          summary: 'The classes the caller reaches',
          security,
          querystring: Type.Object({ schoolId: Type.Optional(SchoolId) }),
          response: { 200: Type.Array(Type.Ref('ClassResponse')), ...errorResponses(401, 422) },
        },
      },
      async (request) => listClasses(deps.sql, callerOf(request), request.query),
    );

    app.post(
      '/users',
      {
        config: { anyPermission: ['MANAGE_ORG', 'MANAGE_CLASS_STUDENTS'], target: userTarget },
        schema: {
          tags: ['users'],
          summary: 'Create a user of any persona (discriminated on primaryPersona)',
          description:
            'ADMIN, TEACHER, PARENT, MANAGER and PRINCIPAL need MANAGE_ORG in the organization; STUDENT enrolls ' +
            'into a class the caller may manage (a teacher of the class, or an organization admin).',
          security,
          body: CreateUserBody,
          response: { 201: UserCreatedResponse, ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // A teacher passes the hook (MANAGE_CLASS_STUDENTS) but creates students only: tenant first for them too.
        if (request.body.primaryPersona !== 'STUDENT' && !holds(caller, 'MANAGE_ORG')) {
          await userTarget(request);
          requireAny(caller, 'MANAGE_ORG');
        }
        return reply.code(201).send(await createUser(deps.sql, caller, request.body));
      },
    );
  };
