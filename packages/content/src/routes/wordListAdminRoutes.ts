import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Sql } from '@qiraa/db';
import { errorResponses, notFound } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { wordListChecker } from '../commands/checkWordList';
import { createWordList } from '../commands/createWordList';
import { editWordList } from '../commands/editWordList';
import { publishWordList } from '../commands/publishWordList';
import { restoreWordList } from '../commands/restoreWordList';
import { retireWordList } from '../commands/retireWordList';
import { contentOfCreateBody } from '../engine/wordListBody';
import { contentTarget } from '../queries/contentTarget';
import { wordListPlace } from '../queries/wordListScope';
import { wordListBuilderView, wordListWithVersions } from '../queries/wordLists';
import { wordListViewById } from '../queries/wordListView';
import { BACKOFFICE, BACKOFFICE_NOTE, security } from '../schemas';
import {
  BuilderViewSchema,
  CheckSchema,
  CreateWordListBody,
  PatchWordListBody,
  VersionSummarySchema,
  WordListRejectedSchema,
  WordListSchema,
  WordListWithWarnings,
} from '../schemas/wordListSchemas';
import { writeScope } from '../scope';

const tags = ['word-lists'];
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'word-list version id' }) });

const REASONS =
  'Reject reasons, checked in this order (the first that applies answers): no_word_list_cell (the skill has no ' +
  'word-list cell in the grade), untimed_with_duration, duration_out_of_range (10 to 600 seconds), ' +
  'words_per_row_out_of_range (1 to 10), not_arabic_word (a word with characters outside Arabic letters and ' +
  'diacritics, spaces and tatweel included), duplicate_words (the same spelling twice), too_few_words and ' +
  'too_many_words (the cell’s min and max words), language_safety_blocked (a word or the reading note fails the ' +
  'general tier). Warnings (stored anyway): cell_has_operational_list (published, the list would join another ' +
  'operational list of the same scope in an overlapping cell; the newest is served), untimed_list, ' +
  'no_reading_note, words_without_diacritics (grades 1-2, a word without harakat). No language-safety rule set: ' +
  '503 LANGUAGE_SAFETY_UNAVAILABLE.';
const LIST_TENANCY =
  'An organization admin’s own lists and its schools’ lists are read and changed by its admins; global lists ' +
  'are read by every back-office caller and changed by the super-admin only (403 PERMISSION_DENIED); another ' +
  'organization’s list, or an unknown id, is 404.';
const TRANSACTION =
  'One transaction that locks every version of the externalId (select … for update), so two concurrent state ' +
  'changes of one list run one after the other; the one-operational-version index is the last guard (a ' +
  'violation answers 409 another_version_operational).';

/** The current view of one version, for the answers of the state changes. */
async function listView(sql: Sql, id: string) {
  const view = await wordListViewById(sql, id);
  if (!view) throw notFound('word list');
  return view;
}

/** The word-list builder (spec: Administration, "Admin word list" state table); docs/word-lists.md. */
export const wordListAdminRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const scopeTarget = contentTarget(deps.sql, { organizationId: 'organization', schoolId: 'school' });

    const listTarget = contentTarget(deps.sql, { id: 'wordList' });

    app.get(
      '/admin/word-lists',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'The word-list builder: every version of the lists in an organization’s view, the cells, the skills',
          description:
            `${BACKOFFICE_NOTE} organizationId omitted: the caller’s own organization; the super-admin without it ` +
            'sees global lists only. Another or an unknown organization: 404. lists: every version in every status ' +
            'of the global lists, the organization’s own and its schools’ lists, with assessmentsCount. cells: ' +
            'grade × skill (the catalog’s word-list cells) × window (BOY, MOY, EOY) with minWords, maxWords and ' +
            'pickedListId, the list the service serves that organization (no school) there: the organization’s ' +
            'own before global, a window list before an all-window list, operational only, then the newest ' +
            '(latest publishedAt); null when none. skills: the skills with word-list cells and their grades.',
          security,
          querystring: Type.Object({ organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
          response: { 200: BuilderViewSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const organizationId = await writeScope(deps.sql, callerOf(request), request.query.organizationId);
        return wordListBuilderView(deps.sql, organizationId);
      },
    );

    app.get(
      '/admin/word-lists/:id',
      {
        config: { ...BACKOFFICE, target: listTarget },
        schema: {
          tags,
          summary: 'One version of a word list, with every version of it',
          description:
            `${BACKOFFICE_NOTE} ${LIST_TENANCY} versions: every version with the same externalId and scope, ` +
            'oldest first (id, version, status, wordCount, updatedAt).',
          security,
          params: IdParams,
          response: {
            200: Type.Object({ ...WordListSchema.properties, versions: Type.Array(VersionSummarySchema) }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request) => wordListWithVersions(deps.sql, callerOf(request), request.params.id),
    );

    app.post(
      '/admin/word-lists/validate',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'Dry run of a create body: would the list be accepted, and with which warnings',
          description:
            `${BACKOFFICE_NOTE} Takes the create body and answers 200 { ok, reject?, warnings } (ok false with the ` +
            'first reject); writes nothing. The scope is resolved as on create (404 for another organization or ' +
            'a school outside it); whether the externalId is free is not checked here (create answers 409 ' +
            `external_id_taken). ${REASONS}`,
          security,
          body: CreateWordListBody,
          response: { 200: CheckSchema, ...errorResponses(400, 401, 403, 404, 422, 503) },
        },
      },
      async (request) => {
        const body = request.body;
        const place = await wordListPlace(deps.sql, callerOf(request), body);
        const checker = await wordListChecker(deps.sql);
        return checker.check(deps.sql, {
          place,
          externalId: body.externalId,
          content: contentOfCreateBody(body),
          operational: body.publish ?? true,
        });
      },
    );

    app.post(
      '/admin/word-lists',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'Create a word list (version 1)',
          description:
            `${BACKOFFICE_NOTE} Scope: organizationId omitted is the caller’s own organization (global for the ` +
            'super-admin); schoolId makes a school list of that organization (the super-admin may name only the ' +
            'school). Another organization, or a school missing or of another organization: 404. timing omitted: ' +
            '{ timed: true, durationSeconds: 60 }; a timed list without durationSeconds runs 60 seconds. ' +
            'publish (default true): operational at once, else a draft. A cell may hold several operational ' +
            'lists (the newest is served). The externalId already used in that scope, in any status: 409 ' +
            `external_id_taken (checked first). Refused: 422 VALIDATION_ERROR, reason = the reject reason, with ` +
            `ok: false, reject and warnings next to code and message. ${REASONS} The answer adds warnings.`,
          security,
          body: CreateWordListBody,
          response: {
            201: WordListWithWarnings,
            ...errorResponses(400, 401, 403, 404, 409, 503),
            422: WordListRejectedSchema,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const { id, check } = await createWordList(deps.sql, callerOf(request), {
          externalId: body.externalId,
          organizationId: body.organizationId,
          schoolId: body.schoolId,
          content: contentOfCreateBody(body),
          publish: body.publish ?? true,
        });
        return reply.code(201).send({ ...(await listView(deps.sql, id)), warnings: check.warnings });
      },
    );

    app.patch(
      '/admin/word-lists/:id',
      {
        config: { ...BACKOFFICE, target: listTarget },
        schema: {
          tags,
          summary: 'Edit a word list (the state table decides whether a new version is made)',
          description:
            `${BACKOFFICE_NOTE} ${LIST_TENANCY} Replaces the fields sent (words, timing, wordsPerRow, ` +
            'readingNoteAr, window; null clears wordsPerRow, readingNoteAr and window); grade, skill, scope and ' +
            'externalId are fixed. ifVersion ≠ the version of this id: 412 PRECONDITION_FAILED reason stale. ' +
            'Only the newest version of an externalId is edited: an older one is 409 newer_version_exists. ' +
            'A draft is edited in place (madeVersion null; the version number stays, so two editors of one ' +
            'draft are not told apart: the last write wins). An operational version gives a new operational ' +
            'version (newest + 1) and the source is retired in the same transaction; a retired version gives a ' +
            'new draft version; madeVersion is the new number and the answer is the new version. A patch that ' +
            `changes nothing: 422 reason no_change. The result is checked as on create (422 with the validate ` +
            `shape). ${REASONS} ${TRANSACTION}`,
          security,
          params: IdParams,
          body: PatchWordListBody,
          response: {
            200: Type.Object({
              ...WordListWithWarnings.properties,
              madeVersion: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
                description: 'the version made; null when a draft was edited in place',
              }),
            }),
            ...errorResponses(400, 401, 403, 404, 409, 412, 503),
            422: WordListRejectedSchema,
          },
        },
      },
      async (request) => {
        const { id, madeVersion, check } = await editWordList(
          deps.sql,
          callerOf(request),
          request.params.id,
          request.body,
        );
        return { ...(await listView(deps.sql, id)), warnings: check.warnings, madeVersion };
      },
    );

    app.post(
      '/admin/word-lists/:id/publish',
      {
        config: { ...BACKOFFICE, target: listTarget },
        schema: {
          tags,
          summary: 'Publish a draft word list (draft → operational)',
          description:
            `${BACKOFFICE_NOTE} ${LIST_TENANCY} Not a draft: 409 invalid_state. A newer version of the ` +
            'externalId is operational: 409 newer_version_operational; an older one: 409 ' +
            'another_version_operational (retire it first; publishing never retires another version). The ' +
            'draft is checked again first (422 with the validate shape): the catalog or the language-safety ' +
            `rules may have changed since it was saved. ${TRANSACTION}`,
          security,
          params: IdParams,
          response: {
            200: WordListSchema,
            ...errorResponses(401, 403, 404, 409, 503),
            422: WordListRejectedSchema,
          },
        },
      },
      async (request) => {
        const { id } = await publishWordList(deps.sql, callerOf(request), request.params.id);
        return listView(deps.sql, id);
      },
    );

    app.post(
      '/admin/word-lists/:id/retire',
      {
        config: { ...BACKOFFICE, target: listTarget },
        schema: {
          tags,
          summary: 'Retire an operational word list (operational → retired)',
          description:
            `${BACKOFFICE_NOTE} ${LIST_TENANCY} Not operational: 409 invalid_state. leavesCellEmpty: true when ` +
            'a cell the list served (its grade and skill in its window, or in every window for an all-window ' +
            'list) has no operational list left in the list’s own scope chain (school → organization → global, ' +
            `as far as the list’s scope reaches). ${TRANSACTION}`,
          security,
          params: IdParams,
          response: {
            200: Type.Object({ ...WordListSchema.properties, leavesCellEmpty: Type.Boolean() }),
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request) => {
        const { id, leavesCellEmpty } = await retireWordList(deps.sql, callerOf(request), request.params.id);
        return { ...(await listView(deps.sql, id)), leavesCellEmpty };
      },
    );

    app.post(
      '/admin/word-lists/:id/restore',
      {
        config: { ...BACKOFFICE, target: listTarget },
        schema: {
          tags,
          summary: 'Restore a retired word list (retired → operational, in place)',
          description:
            `${BACKOFFICE_NOTE} ${LIST_TENANCY} The restore rules: a retired version becomes operational again ` +
            'with the same id and version (retiredAt cleared, publishedAt now) when no other version of its ' +
            'externalId is operational: a newer one is 409 newer_version_operational, an older one 409 ' +
            'another_version_operational (retire it first). Not retired: 409 invalid_state. It is checked ' +
            `again first (422 with the validate shape). ${TRANSACTION}`,
          security,
          params: IdParams,
          response: {
            200: WordListSchema,
            ...errorResponses(401, 403, 404, 409, 503),
            422: WordListRejectedSchema,
          },
        },
      },
      async (request) => {
        const { id } = await restoreWordList(deps.sql, callerOf(request), request.params.id);
        return listView(deps.sql, id);
      },
    );
  };
