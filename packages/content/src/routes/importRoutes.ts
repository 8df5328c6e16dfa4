import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { approveImportBatch } from '../commands/approveImportBatch';
import { importContent } from '../commands/importContent';
import { REJECT_REASONS } from '../engine/rejectReasons';
import { CONTENT_KINDS } from '../queries/catalogTypes';
import { contentTarget } from '../queries/contentTarget';
import {
  BATCH_PAGE_DEFAULT,
  BATCH_PAGE_MAX,
  batchReport,
  batchScope,
  decodeBatchCursor,
  listBatches,
} from '../queries/importBatches';
import { BACKOFFICE, BACKOFFICE_NOTE, literals, security } from '../schemas';
import { ImportBody } from '../schemas/importBody';
import { ApprovalSchema, BatchSummarySchema, ImportReportSchema } from '../schemas/reportSchema';
import { assertCanChange, canSee, writeScope } from '../scope';
import { countDecodedBytes, decodedBytesOf, enforceKindSizeLimit, IMPORT_MAX_BYTES } from './sizeLimit';

const tags = ['content'];
const KindQuery = literals(CONTENT_KINDS, { default: 'item', description: 'batches of this kind only' });
const BatchParams = Type.Object({ batchId: Type.String({ minLength: 1, maxLength: 64 }) });
const DOC = 'docs/content-import.md';

/** Import batches: import, list, read, approve (spec: Administration; docs/content-import.md). */
export const importRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const scopeTarget = contentTarget(deps.sql, { organizationId: 'organization' });
    const batchTarget = contentTarget(deps.sql, { batchId: 'batch' });

    app.post(
      '/items/import',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        bodyLimit: IMPORT_MAX_BYTES,
        preParsing: countDecodedBytes,
        preValidation: enforceKindSizeLimit,
        schema: {
          tags,
          summary: 'Import a batch of content (items, a bundle, a screening form, scaffold prompts, word lists)',
          description:
            `${BACKOFFICE_NOTE} contentKind (default item) decides the payload: item → items; content_bundle → ` +
            'passages and items; screening_form → form, passages and items; scaffold_prompt → scaffoldPrompts; ' +
            'word_list → wordLists. Another payload field, or sourceDeclared/agreementSignoff on a prompt or ' +
            'list batch, is 422 reason field_not_allowed_for_kind; no rows is 422 empty_payload; a screening_form ' +
            'without form is 422 form_required. sourceDeclared is required for item, content_bundle and ' +
            'screening_form (422 source_declared_required), and so is agreementSignoff (422 ' +
            'agreement_signoff_required). organizationId: omitted, the caller’s organization (global for the ' +
            'super-admin); another organization is 404. Size after decoding: item and content_bundle 10 MB, ' +
            'screening_form 2 MB, scaffold_prompt and word_list 1 MB (1 MB = 1,048,576 bytes); over is 413 ' +
            'PAYLOAD_TOO_LARGE. `Content-Encoding: gzip` is accepted: the body is inflated while it streams and ' +
            'cut with 413 as soon as it passes 10 MB decoded, before it is parsed; the kind’s own limit is ' +
            'checked on the decoded size right after parsing, before validation or any write. Another encoding ' +
            'is 415; broken gzip is 400. Each row is checked against the catalog and the language-safety filter ' +
            `and reported with rejectReason (one of: ${REJECT_REASONS.join(', ')}) or stored: items, passages ` +
            'and prompts pending_review, forms and word lists draft, as the next version of their external id. ' +
            'A row equal to the newest stored version is `unchanged: true` with that id (a re-import stores ' +
            'nothing new). A screening form is one unit: formProblems (per measure: positions 1..n, n = the ' +
            'catalog form_item_count) or any rejected row rejects the whole form (formRejected, every row ' +
            `rejected, nothing stored). One transaction. Without a language-safety rule set: 503. See ${DOC}.`,
          security,
          body: ImportBody,
          response: { 201: ImportReportSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 503) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const organizationId = await writeScope(deps.sql, caller, request.body.organizationId);
        const report = await importContent(deps, {
          organizationId,
          createdBy: caller.userId,
          body: request.body,
          decodedBytes: decodedBytesOf(request),
        });
        return reply.code(201).send(report);
      },
    );

    app.get(
      '/items/import',
      {
        config: BACKOFFICE,
        schema: {
          tags,
          summary: 'Import batches, newest first',
          description:
            `${BACKOFFICE_NOTE} Batches of contentKind (default item) the caller can see: their organization’s ` +
            'and the global ones (every batch for the super-admin). Entries are the batch report without rows. ' +
            `Cursor pagination: pass nextCursor as cursor; limit defaults to ${BATCH_PAGE_DEFAULT}, at most ` +
            `${BATCH_PAGE_MAX}. A cursor that is not one of ours is 422 reason invalid_cursor.`,
          security,
          querystring: Type.Object({
            contentKind: Type.Optional(KindQuery),
            cursor: Type.Optional(Type.String({ maxLength: 512 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: BATCH_PAGE_MAX, default: BATCH_PAGE_DEFAULT })),
          }),
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
        const { cursor, limit, contentKind } = request.query;
        const after = cursor === undefined ? null : decodeBatchCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return listBatches(
          deps.sql,
          callerOf(request),
          { contentKind: contentKind ?? 'item' },
          { limit: limit ?? BATCH_PAGE_DEFAULT, after },
        );
      },
    );

    app.get(
      '/items/import/:batchId',
      {
        config: { ...BACKOFFICE, target: batchTarget },
        schema: {
          tags,
          summary: 'One import batch report',
          description:
            `${BACKOFFICE_NOTE} The full report with its rows. The spec’s filter contentKind (default item) ` +
            'applies here too: a batch of another kind than the one asked for is 404 (ask with its kind). ' +
            'Another organization’s batch is 404; global batches are readable by every back-office caller.',
          security,
          params: BatchParams,
          querystring: Type.Object({ contentKind: Type.Optional(KindQuery) }),
          response: { 200: ImportReportSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const scope = await batchScope(deps.sql, request.params.batchId);
        const kind = request.query.contentKind ?? 'item';
        if (!scope || !canSee(callerOf(request), scope.organizationId) || scope.contentKind !== kind) {
          throw notFound('import batch');
        }
        const report = await batchReport(deps.sql, request.params.batchId);
        if (!report) throw notFound('import batch');
        return report;
      },
    );

    app.post(
      '/items/import/:batchId/approve',
      {
        config: { ...BACKOFFICE, target: batchTarget },
        schema: {
          tags,
          summary: 'Approve an import batch',
          description:
            `${BACKOFFICE_NOTE} The batch’s pending rows become operational (word lists: published); ids named ` +
            'in exceptions (itemBankId, passageId, scaffoldPromptId or wordListId of this batch’s stored rows) ' +
            'are declined instead (a word list named stays draft: its states have no declined); an id that is ' +
            'not a pending row of the batch is 422 reason exception_not_in_batch. Approving a version retires ' +
            'the earlier operational version of its external id; the response lists them in `retired`. A ' +
            'screening form is approved as one unit: exceptions are 422 form_is_one_unit; the form goes live and ' +
            'its earlier live version is retired with its items. 409 reasons: already_approved; form_rejected ' +
            '(the form was refused at import); newer_version_operational (a newer version of a row, or of the ' +
            'form, is already live: nothing changes); passage_not_operational (an item to approve links to a ' +
            'passage still pending in another batch or declined). When operational items change an item-bank ' +
            'pin is taken (itemBankPinId, else null). Organization admins approve their organization’s batches; ' +
            'a global batch only the super-admin (403). One transaction, the batch row locked.',
          security,
          params: BatchParams,
          body: Type.Object({
            exceptions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20000 })),
          }),
          response: { 200: ApprovalSchema, ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const scope = await batchScope(deps.sql, request.params.batchId);
        if (!scope) throw notFound('import batch');
        assertCanChange(caller, scope.organizationId, 'import batch');
        const result = await approveImportBatch(deps, {
          batchId: request.params.batchId,
          approvedBy: caller.userId,
          exceptions: request.body.exceptions ?? [],
        });
        switch (result.outcome) {
          case 'approved':
            return { ...result.report, itemBankPinId: result.itemBankPinId };
          case 'not_found':
            throw notFound('import batch');
          case 'form_is_one_unit':
            throw unprocessable('form_is_one_unit', 'a screening form is approved as one unit: no exceptions', [
              { field: 'exceptions', issue: 'not allowed for a screening_form batch' },
            ]);
          case 'exception_not_in_batch':
            throw unprocessable(
              'exception_not_in_batch',
              'exceptions name ids that are not pending rows of this batch',
              result.ids.map((id) => ({ field: 'exceptions', issue: `${id} is not a pending row of the batch` })),
            );
          case 'newer_version_operational':
            throw conflict('newer_version_operational', `a newer version is operational: ${result.ids.join(', ')}`);
          case 'passage_not_operational':
            throw conflict(
              'passage_not_operational',
              `items link to a passage that is not live: ${result.ids.join(', ')}`,
            );
          default:
            throw conflict(result.outcome, `the batch cannot be approved: ${result.outcome}`);
        }
      },
    );
  };
