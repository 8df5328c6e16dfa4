import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, conflict, errorResponses, notFound, refusalResponses, unprocessable } from '@qiraa/http-kit';
import { type Caller, callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { editItem } from '../commands/editItem';
import { contentTarget } from '../queries/contentTarget';
import { decodeItemCursor, ITEM_PAGE_DEFAULT, ITEM_PAGE_MAX, itemRowById, listItems } from '../queries/items';
import { etagOf, ITEM_STATUSES, ItemSchema, itemViewOf } from '../queries/itemViews';
import { ArabicText, BACKOFFICE, BACKOFFICE_NOTE, ContentRoleSchema, literals, security } from '../schemas';
import { assertCanChange, canSee } from '../scope';

const tags = ['content'];
const View = literals(['student', 'authoring'] as const, {
  default: 'student',
  description: 'student (default): only what a child’s screen shows; authoring: every field',
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const VIEWS_NOTE =
  'Default view (student projection): id, version, stemAr, options (key, textAr) and passageId only, never ' +
  'the correct option, pattern, level or sub-skill. view=authoring adds contentRole, screeningFormId, ' +
  'contentPurpose, externalId, organizationId, grade, subSkillId, itemPattern, measureCode, formPosition, ' +
  'trainingLevel, bridgeTargetSkillId, correctOptionKey, hintAr, explanationAr, status, revision, etag ' +
  '(r<revision>), importBatchId, createdAt, updatedAt.';

const EditBody = Type.Object({
  stemAr: Type.Optional(ArabicText(1000)),
  options: Type.Optional(
    Type.Array(Type.Object({ key: Type.String({ pattern: '^[A-Za-z0-9_-]{1,16}$' }), textAr: ArabicText(300) }), {
      minItems: 2,
      maxItems: 4,
    }),
  ),
  correctOptionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  hintAr: Type.Optional(Type.Union([ArabicText(1000), Type.Null()])),
  explanationAr: Type.Optional(Type.Union([ArabicText(2000), Type.Null()])),
  saveAs: Type.Optional(literals(['in_place', 'new_version'] as const)),
  ifMatch: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'the ETag, for clients that cannot set If-Match' }),
  ),
});

/** `"r3"`, `r3` or `W/"r3"` → 3; anything else matches no revision. */
const revisionOf = (ifMatch: string): number | null => {
  const m = /^(?:W\/)?"?r(\d{1,9})"?$/.exec(ifMatch.trim());
  return m ? Number(m[1]) : null;
};

/** The item when the caller may see it; another organization's item is 404 like a missing one. */
async function visibleItem(deps: ContextDeps, caller: Caller, id: string) {
  const row = await itemRowById(deps.sql, id);
  if (!row || !canSee(caller, row.organization_id)) throw notFound('item');
  return row;
}

/** The item bank: list, read, edit (spec: Administration; docs/content-import.md). */
export const itemRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const itemTarget = contentTarget(deps.sql, { id: 'item' });

    app.get(
      '/items',
      {
        config: BACKOFFICE,
        schema: {
          tags,
          summary: 'Item-bank items',
          description:
            `${BACKOFFICE_NOTE} Items of the caller’s organization and global items (all for the super-admin), ` +
            'ordered by external id, newest version first. Filters: contentRole, measureCode, subSkillId, grade, ' +
            'status (default operational; all lists every status), trainingLevel, screeningFormId. ' +
            `${VIEWS_NOTE} Cursor pagination: limit defaults to ${ITEM_PAGE_DEFAULT}, at most ${ITEM_PAGE_MAX}; ` +
            'an unknown cursor is 422 reason invalid_cursor.',
          security,
          querystring: Type.Object({
            contentRole: Type.Optional(ContentRoleSchema),
            measureCode: Type.Optional(Type.String({ maxLength: 64 })),
            subSkillId: Type.Optional(Type.String({ maxLength: 64 })),
            grade: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
            status: Type.Optional(literals([...ITEM_STATUSES, 'all'] as const, { default: 'operational' })),
            trainingLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
            screeningFormId: Type.Optional(Type.String({ maxLength: 64 })),
            view: Type.Optional(View),
            cursor: Type.Optional(Type.String({ maxLength: 512 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ITEM_PAGE_MAX, default: ITEM_PAGE_DEFAULT })),
          }),
          response: {
            200: Type.Object({ items: Type.Array(ItemSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            ...errorResponses(401, 403, 422),
          },
        },
      },
      async (request) => {
        const { cursor, limit, view, status, ...filter } = request.query;
        const after = cursor === undefined ? null : decodeItemCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        const page = await listItems(
          deps.sql,
          callerOf(request),
          { ...filter, status: status ?? 'operational' },
          { limit: limit ?? ITEM_PAGE_DEFAULT, after },
        );
        return { items: page.rows.map((r) => itemViewOf(r, view ?? 'student')), nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/items/:id',
      {
        config: { ...BACKOFFICE, target: itemTarget },
        schema: {
          tags,
          summary: 'One item-bank item',
          description: `${BACKOFFICE_NOTE} ${VIEWS_NOTE} Sends the item’s ETag header ("r<revision>") for PATCH.`,
          security,
          params: IdParams,
          querystring: Type.Object({ view: Type.Optional(View) }),
          response: { 200: ItemSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const row = await visibleItem(deps, callerOf(request), request.params.id);
        void reply.header('etag', `"${etagOf(row.revision)}"`);
        return itemViewOf(row, request.query.view ?? 'student');
      },
    );

    app.patch(
      '/items/:id',
      {
        config: { ...BACKOFFICE, target: itemTarget },
        schema: {
          tags,
          summary: 'Edit an item’s stem, options, correct option, hint or explanation',
          description:
            `${BACKOFFICE_NOTE} If-Match carries the ETag ("r<revision>", quotes optional; a client that cannot ` +
            'set headers sends it as body ifMatch, the header wins when both come; neither is 428 ' +
            'PRECONDITION_REQUIRED reason if_match_required); a mismatch is 412 PRECONDITION_FAILED reason stale. ' +
            'At least one content field (else 422 nothing_to_change). ' +
            'A pending_review item is edited in place (revision + 1). An operational item (not screening) gets ' +
            'a new operational version (version + 1, same external id), the source is retired and an item-bank ' +
            'pin is taken (madeVersion: true). A screening item that is operational or retired, or saveAs ' +
            'new_version on any screening item, is 422 form_item_not_duplicable: a form’s items change only with ' +
            'a new form version through import. saveAs that contradicts the rule (new_version on a pending item, ' +
            'in_place on an operational one) is 422 save_as_mismatch. A retired or declined item is 409 ' +
            'invalid_state. correctOptionKey must be an option key (422 correct_option_missing; repeated keys 422 ' +
            'duplicate_option_keys). Student-facing strings pass the language filter (422 ' +
            'language_safety_blocked, details name the fields; no rule set: 503). An organization admin editing ' +
            'a global item is 403; another organization’s item 404. Answers the authoring view of the resulting ' +
            'item with madeVersion and itemBankPinId (null when no pin was taken) and its ETag header.',
          security,
          params: IdParams,
          headers: Type.Object({ 'if-match': Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
          body: EditBody,
          response: {
            200: Type.Object({
              ...ItemSchema.properties,
              madeVersion: Type.Boolean(),
              itemBankPinId: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(401, 403, 404, 409, 412, 422, 428, 503),
            ...refusalResponses({ 428: ['if_match_required'] }),
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await visibleItem(deps, caller, request.params.id);
        assertCanChange(caller, row.organization_id, 'item');
        const { saveAs, ifMatch, ...changes } = request.body;
        const etag = request.headers['if-match'] ?? ifMatch;
        if (etag === undefined) {
          throw new ApiError(428, 'PRECONDITION_REQUIRED', 'send the item’s ETag as If-Match', {
            reason: 'if_match_required',
          });
        }
        if (Object.keys(changes).length === 0) {
          throw unprocessable('nothing_to_change', 'name at least one field to change');
        }
        const result = await editItem(deps, {
          itemId: row.id,
          ifMatchRevision: revisionOf(etag),
          changes,
          ...(saveAs ? { saveAs } : {}),
        });
        switch (result.outcome) {
          case 'edited':
            void reply.header('etag', `"${etagOf(result.row.revision)}"`);
            return {
              ...itemViewOf(result.row, 'authoring'),
              madeVersion: result.madeVersion,
              itemBankPinId: result.itemBankPinId,
            };
          case 'not_found':
            throw notFound('item');
          case 'stale':
            throw new ApiError(412, 'PRECONDITION_FAILED', 'the item changed since you read it', { reason: 'stale' });
          case 'invalid_state':
            throw conflict('invalid_state', 'a retired or declined item cannot be edited');
          case 'language_safety_blocked':
            throw unprocessable(
              'language_safety_blocked',
              'a student-facing string does not pass the language filter',
              result.fields.map((field) => ({ field, issue: 'does not pass the general language-safety tier' })),
            );
          default:
            throw unprocessable(result.outcome, `the edit is refused: ${result.outcome}`);
        }
      },
    );
  };
