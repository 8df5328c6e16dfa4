import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { contentTarget } from '../queries/contentTarget';
import { dryRunReplay } from '../queries/dryRunReplay';
import { loadCatalog } from '../queries/loadCatalog';
import { screeningFormOwner } from '../queries/owners';
import { BACKOFFICE, BACKOFFICE_NOTE, literals, SectionKeySchema, security } from '../schemas';
import { canSee, namedOrganization } from '../scope';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const ReplayBody = Type.Object({
  pinnedItemBankId: Type.String({ minLength: 1, maxLength: 64, description: 'an item-bank pin id (ibk_…)' }),
  formServe: Type.Object({
    formId: Id,
    measureCodes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: 20,
        description: 'measures to serve, in this order; default: the form’s measures in catalog order',
      }),
    ),
  }),
  organizationId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'replay as this organization’s sitting: the form must be global or this organization’s',
    }),
  ),
});

const ReplaySchema = Type.Object({
  pinnedItemBankId: Type.String(),
  pinTakenAt: Type.String({ format: 'date-time' }),
  formId: Type.String(),
  formStatus: literals(['draft', 'operational', 'retired'] as const),
  served: Type.Array(
    Type.Object({
      order: Type.Integer({ minimum: 1 }),
      sectionKey: Nullable(SectionKeySchema),
      measureCode: Type.String(),
      formPosition: Type.Integer(),
      itemId: Nullable(Type.String()),
      itemVersion: Nullable(Type.Integer()),
      passageId: Nullable(Type.String()),
      breakBefore: Type.Boolean(),
    }),
  ),
  unserved: Type.Array(
    Type.Object({
      measureCode: Type.String(),
      formPosition: Type.Integer(),
      itemId: Type.String(),
      reason: literals(['not_in_pinned_bank'] as const),
    }),
  ),
  sections: Type.Array(Type.Object({ key: SectionKeySchema, total: Type.Integer({ minimum: 1 }) })),
});

/** POST /api/admin/delivery/dry-run-replay: which questions a sitting pinned to an item bank would be served. */
export const dryRunReplayRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const formTarget = contentTarget(deps.sql, { organizationId: 'organization', 'formServe.formId': 'form' });

    app.post(
      '/admin/delivery/dry-run-replay',
      {
        config: { ...BACKOFFICE, target: formTarget },
        schema: {
          tags: ['content'],
          summary: 'Replay which questions a sitting pinned to an item bank would be served from a form',
          description:
            `${BACKOFFICE_NOTE} Writes nothing. pinnedItemBankId: an item-bank pin (unknown: 404). formServe: ` +
            '{ formId, measureCodes? } (a form the caller cannot see, or another organization’s than ' +
            'organizationId, is 404; an unknown measure code is 422 catalog_gap, a repeated one 422 ' +
            'duplicate_measure). For each measure in order, the form’s questions in position order as the pin ' +
            'recorded them (itemId, itemVersion, formPosition, passageId). A question the form holds but the pin ' +
            'does not (every question of a draft form; one added after the pin) is listed in unserved with reason ' +
            'not_in_pinned_bank and its slot is served with itemId null: a sitting stops there (no_eligible_item), ' +
            'nothing is substituted. breakBefore as in the diagnostic start (grades 3 and 4: the question after ' +
            'the last question on a passage). sections: { key, total } of the served questions, in order. Use it ' +
            'to check a draft form before approval and that a live form serves what it should; the same input ' +
            'always answers the same (pins are immutable).',
          security,
          body: ReplayBody,
          response: { 200: ReplaySchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pinnedItemBankId, formServe, organizationId } = request.body;
        const form = await screeningFormOwner(deps.sql, formServe.formId);
        if (!form || !canSee(caller, form.organizationId)) throw notFound('screening form');
        if (organizationId !== undefined) {
          await namedOrganization(deps.sql, caller, organizationId);
          if (form.organizationId !== null && form.organizationId !== organizationId) {
            throw notFound('screening form');
          }
        }
        const codes = formServe.measureCodes ?? null;
        if (codes) {
          const catalog = await loadCatalog(deps.sql);
          const unknown = codes.flatMap((c, i) => (catalog.measureByCode.has(c) ? [] : [i]));
          if (unknown.length > 0) {
            throw unprocessable(
              'catalog_gap',
              'measure codes the catalog does not have',
              unknown.map((i) => ({ field: `formServe.measureCodes[${i}]`, issue: 'not a measure of the catalog' })),
            );
          }
          const repeated = codes.flatMap((c, i) => (codes.indexOf(c) < i ? [i] : []));
          if (repeated.length > 0) {
            throw unprocessable(
              'duplicate_measure',
              'a measure listed twice',
              repeated.map((i) => ({ field: `formServe.measureCodes[${i}]`, issue: 'measure listed twice' })),
            );
          }
        }
        const result = await dryRunReplay(deps.sql, {
          pinnedItemBankId,
          formId: formServe.formId,
          measureCodes: codes,
        });
        if (result.outcome === 'pin_not_found') throw notFound('item-bank pin');
        if (result.outcome === 'form_not_found') throw notFound('screening form');
        return result.replay;
      },
    );
  };
