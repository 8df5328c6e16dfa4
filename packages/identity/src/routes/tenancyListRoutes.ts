import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { callerOf } from '../engine/caller';
import { listOrganizations } from '../queries/listOrganizations';
import { listSchools } from '../queries/listSchools';
import { LIST_PAGE_DEFAULT, LIST_PAGE_MAX } from '../queries/namePage';
import { OrganizationId } from '../schemas';
import { OrgResponse, SchoolResponse } from '../schemas/tenancySchemas';

const security = [{ bearerAuth: [] }];
const tags = ['tenancy'];

const Paging = {
  cursor: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{1,2048}$', description: 'nextCursor of the previous page' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: LIST_PAGE_MAX,
      default: LIST_PAGE_DEFAULT,
      description: `page size, default ${LIST_PAGE_DEFAULT}, at most ${LIST_PAGE_MAX}`,
    }),
  ),
};
const PAGING_NOTE =
  `Sorted by name, then id. Cursor pagination: pass nextCursor as cursor (null on the last page); limit ` +
  `defaults to ${LIST_PAGE_DEFAULT}, at most ${LIST_PAGE_MAX}. A cursor that is not one of this list's is 422 ` +
  'VALIDATION_ERROR reason invalid_cursor.';

const page = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  });

const OrganizationListItem = Type.Object({
  ...OrgResponse.properties,
  disabled: Type.Boolean({ description: 'its users cannot sign in' }),
});

/** GET /api/organizations and GET /api/schools: operations qiraa designs (docs/identity.md, Tenancy lists). */
export const tenancyListRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/organizations',
      {
        schema: {
          tags,
          summary: 'The organizations the caller reaches',
          description:
            'The super-scope administrator: every organization, disabled ones included. An organization ' +
            'administrator or manager: their own organization (a page of one). Teachers, principals, parents ' +
            `and students: 403 PERMISSION_DENIED (their reach is classes, a school or children). ${PAGING_NOTE}`,
          security,
          querystring: Type.Object(Paging),
          response: { 200: page(OrganizationListItem), ...errorResponses(401, 403, 422) },
        },
      },
      async (request) => {
        const { cursor, limit } = request.query;
        return listOrganizations(deps.sql, callerOf(request), { cursor, limit: limit ?? LIST_PAGE_DEFAULT });
      },
    );

    app.get(
      '/schools',
      {
        schema: {
          tags,
          summary: 'The schools the caller reaches',
          description:
            'The super-scope administrator: every school; an organization administrator or manager: the ' +
            "organization's schools; a principal: their school; a teacher: the schools of the classes they " +
            'teach; parents and students: 403 PERMISSION_DENIED. organizationId narrows the list to one ' +
            'organization; another organization, or one that does not exist, is 404 NOT_FOUND (checked before ' +
            `the permission). ${PAGING_NOTE}`,
          security,
          querystring: Type.Object({ organizationId: Type.Optional(OrganizationId), ...Paging }),
          response: { 200: page(SchoolResponse), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { limit, ...query } = request.query;
        return listSchools(deps.sql, callerOf(request), { ...query, limit: limit ?? LIST_PAGE_DEFAULT });
      },
    );
  };
