import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorResponses, notFound } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { importRoster } from '../commands/importRoster';
import { type Caller, callerOf, isSuperAdmin, type TargetCheck } from '../engine/caller';
import { getRosterImport } from '../queries/getRosterImport';
import { organizationExists } from '../queries/organizationExists';
import { unprocessableField } from '../queries/scope';
import { RosterImportQuery } from '../schemas/rosterImportSchemas';

const security = [{ bearerAuth: [] }];
const tags = ['admin'];
/** A ZIP of a ministry's OneRoster export for many schools; the simple CSV is far smaller. */
export const ROSTER_UPLOAD_LIMIT_BYTES = 64 * 1024 * 1024;

/** The organization an import writes into: an administrator's own; the super-scope administrator names one. */
function importOrganization(caller: Caller, asked: string | undefined): string {
  if (isSuperAdmin(caller)) {
    if (asked === undefined)
      throw unprocessableField('organizationId', 'is required for the super-scope administrator');
    return asked;
  }
  if (caller.organizationId === null || (asked !== undefined && asked !== caller.organizationId)) {
    throw notFound('organization');
  }
  return caller.organizationId;
}

/** POST /api/admin/roster-imports and GET /api/admin/roster-imports/{id} (docs/roster-import.md). */
export const rosterImportRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addContentTypeParser(
      ['application/zip', 'text/csv'],
      { parseAs: 'buffer', bodyLimit: ROSTER_UPLOAD_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    const namedOrganization: TargetCheck = async (request) => {
      const asked = (request.query as { organizationId?: string }).organizationId;
      const caller = callerOf(request);
      if (asked === undefined) return;
      if (isSuperAdmin(caller)) {
        if (!(await organizationExists(deps.sql, asked))) throw notFound('organization');
      } else importOrganization(caller, asked);
    };
    const importTarget: TargetCheck = async (request) => {
      await getRosterImport(deps.sql, callerOf(request), (request.params as { id: string }).id);
    };

    app.post(
      '/admin/roster-imports',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: namedOrganization },
        bodyLimit: ROSTER_UPLOAD_LIMIT_BYTES,
        schema: {
          consumes: ['application/zip', 'text/csv'],
          tags,
          summary: 'Import a roster: a OneRoster 1.2 CSV set (application/zip) or the simple CSV (text/csv)',
          description:
            'Dry run first (`dryRun=true`: the report, nothing written). A real run writes each school all or ' +
            'nothing: a school with any problem in the report is not written, the others are. Idempotent by ' +
            'external id (sourcedId, externalId). See docs/roster-import.md for the formats and the report codes.',
          security,
          querystring: RosterImportQuery,
          body: Type.Unsafe<Buffer>({ description: 'the ZIP or the CSV file, as the body' }),
          response: { 201: Type.Ref('RosterImportReport'), ...errorResponses(401, 403, 404, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const organizationId = importOrganization(caller, request.query.organizationId);
        const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (!Buffer.isBuffer(request.body)) {
          throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the roster as application/zip or text/csv');
        }
        const bytes = new Uint8Array(request.body);
        const source =
          contentType === 'text/csv'
            ? { kind: 'simple-csv' as const, name: 'roster.csv', bytes }
            : { kind: 'oneroster-zip' as const, bytes };
        const report = await importRoster(deps, source, {
          organizationId,
          actorUserId: caller.userId,
          dryRun: request.query.dryRun ?? false,
          deactivateMissing: request.query.deactivateMissing ?? false,
          ...(request.query.academicYear ? { academicYear: request.query.academicYear } : {}),
        });
        return reply.code(201).send(report);
      },
    );

    app.get(
      '/admin/roster-imports/:id',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: importTarget },
        schema: {
          tags,
          summary: 'The report of a roster import (dry run or applied)',
          security,
          params: Type.Object({ id: Type.String({ pattern: '^rim_[a-z0-9]{16}$' }) }),
          response: { 200: Type.Ref('RosterImportReport'), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => getRosterImport(deps.sql, callerOf(request), request.params.id),
    );
  };
