import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { BLUEPRINT_REJECT_REASONS } from '../codes';
import { approveBlueprintBatch } from '../commands/approveBlueprintBatch';
import { importBlueprints } from '../commands/importBlueprints';
import {
  batchReport,
  batchScope,
  blueprintById,
  blueprintOf,
  decodeCursor,
  listBatches,
} from '../queries/blueprintQueries';
import { assertCanChange, canSee, writeScope } from '../queries/blueprintScope';
import { BACKOFFICE, BACKOFFICE_NOTE, CursorQuery, LimitQuery, PAGE_DEFAULT, security } from '../schemas';
import {
  BatchReportSchema,
  BatchSummarySchema,
  BlueprintSchema,
  ImportBlueprintsBody,
} from '../schemas/blueprintSchemas';

const tags = ['sessions'];
const BatchParams = Type.Object({ batchId: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Session-blueprint administration (spec: Sessions; docs/sessions.md, Blueprints). */
export const blueprintRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const organizationTarget: TargetCheck = async (request) => {
      const { organizationId } = (request.body ?? {}) as { organizationId?: string };
      if (organizationId !== undefined) await writeScope(sql, callerOf(request), organizationId);
    };
    const batchTarget: TargetCheck = async (request) => {
      const scope = await batchScope(sql, (request.params as { batchId: string }).batchId);
      if (!scope || !canSee(callerOf(request), scope.organizationId)) throw notFound('import batch');
    };
    const blueprintTarget: TargetCheck = async (request) => {
      const row = await blueprintById(sql, (request.params as { id: string }).id);
      if (!row || !canSee(callerOf(request), row.organization_id)) throw notFound('blueprint');
    };

    app.post(
      '/session-blueprints/import',
      {
        config: { ...BACKOFFICE, target: organizationTarget },
        schema: {
          tags,
          summary: 'Import a batch of session blueprints (pending review)',
          description:
            `${BACKOFFICE_NOTE} Each blueprint: externalId, grade, theme (closed list), 1 to 5 sub-skills of the ` +
            'catalog valid in that grade, targetMinutes, titleAr, introAr, tags (closed list). Each row is ' +
            `reported stored (the next version, pending_review), unchanged (equal to the newest version: nothing ` +
            `stored) or refused with rejectReason (${BLUEPRINT_REJECT_REASONS.join(', ')}); titleAr and introAr ` +
            'are student-facing and pass the language-safety filter (general tier). None is operational before ' +
            'approval. organizationId: omitted, the caller’s organization (global for the super-admin). One ' +
            'transaction. Without a language-safety rule set: 503.',
          security,
          body: ImportBlueprintsBody,
          response: { 201: BatchReportSchema, ...errorResponses(400, 401, 403, 404, 422, 503) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const organizationId = await writeScope(sql, caller, request.body.organizationId);
        const report = await importBlueprints(deps, { organizationId, createdBy: caller.userId, body: request.body });
        return reply.code(201).send(report);
      },
    );

    app.get(
      '/session-blueprints/import',
      {
        config: BACKOFFICE,
        schema: {
          tags,
          summary: 'Blueprint import batches, newest first',
          description:
            `${BACKOFFICE_NOTE} The batches the caller can see (their organization’s and the global ones), ` +
            'without rows. Cursor pagination: pass nextCursor as cursor; a cursor not of ours is 422 reason ' +
            'invalid_cursor.',
          security,
          querystring: Type.Object({ cursor: CursorQuery, limit: LimitQuery }),
          response: {
            200: Type.Object({
              batches: Type.Array(BatchSummarySchema),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(401, 403, 422),
          },
        },
      },
      async (request) => {
        const { cursor, limit } = request.query;
        const after = cursor === undefined ? null : decodeCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return listBatches(sql, callerOf(request), { limit: limit ?? PAGE_DEFAULT, after });
      },
    );

    app.get(
      '/session-blueprints/import/:batchId',
      {
        config: { ...BACKOFFICE, target: batchTarget },
        schema: {
          tags,
          summary: 'One blueprint import batch with its rows',
          description: `${BACKOFFICE_NOTE} Global batches are readable by every back-office caller.`,
          security,
          params: BatchParams,
          response: { 200: BatchReportSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        await batchTarget(request);
        const report = await batchReport(sql, request.params.batchId);
        if (!report) throw notFound('import batch');
        return report;
      },
    );

    app.post(
      '/session-blueprints/:batchId/approve',
      {
        config: { ...BACKOFFICE, target: batchTarget },
        schema: {
          tags,
          summary: 'Approve a blueprint import batch: its blueprints become operational',
          description:
            `${BACKOFFICE_NOTE} pending_review → operational for every blueprint the batch stored; the earlier ` +
            'operational version of each is retired (listed in `retired`; sessions pinned to it keep it). A ' +
            'global batch is approved by the super-admin only (403). Approved already: 409 CONFLICT reason ' +
            'already_approved.',
          security,
          params: BatchParams,
          response: {
            200: Type.Object({ ...BatchReportSchema.properties, retired: Type.Array(Type.String()) }),
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const scope = await batchScope(sql, request.params.batchId);
        if (!scope) throw notFound('import batch');
        assertCanChange(caller, scope.organizationId, 'import batch');
        return approveBlueprintBatch(deps, { batchId: request.params.batchId, approvedBy: caller.userId });
      },
    );

    app.get(
      '/session-blueprints/:id',
      {
        config: { ...BACKOFFICE, target: blueprintTarget },
        schema: {
          tags,
          summary: 'One blueprint version',
          description: `${BACKOFFICE_NOTE} Any status (pending_review, operational, retired).`,
          security,
          params: IdParams,
          response: { 200: BlueprintSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        await blueprintTarget(request);
        return blueprintOf((await blueprintById(sql, request.params.id))!);
      },
    );
  };
