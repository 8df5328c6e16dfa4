import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, conflict, errorResponses, notFound, unprocessable } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { moveFormPositions } from '../commands/moveFormPositions';
import { contentTarget } from '../queries/contentTarget';
import { screeningFormOwner } from '../queries/owners';
import { BACKOFFICE, BACKOFFICE_NOTE, security } from '../schemas';
import { assertCanChange, canSee } from '../scope';

const MovesBody = Type.Object({
  moves: Type.Array(
    Type.Object({
      itemId: Type.String({ minLength: 1, maxLength: 64 }),
      formPosition: Type.Integer({ minimum: 1, maximum: 999_999, description: 'the item’s new position' }),
      ifMatch: Type.String({ pattern: '^r[0-9]+$', description: 'the item’s ETag r<revision> as last read' }),
    }),
    { minItems: 1, maxItems: 60, description: '1 to 60 moves (spec Limits: position moves per request)' },
  ),
});

const MovedSchema = Type.Object({
  formId: Type.String(),
  measureCode: Type.String(),
  items: Type.Array(
    Type.Object({ itemId: Type.String(), formPosition: Type.Integer({ minimum: 1 }), etag: Type.String() }),
    { description: 'every item of the measure, in position order, with its ETag after the move' },
  ),
  itemBankPinId: Type.Union([Type.String(), Type.Null()], {
    description: 'the item-bank pin taken for an operational form; null for a draft or retired form',
  }),
});

/** PUT /api/admin/taqyeem/forms/{formId}/positions: reorder questions of one measure of a screening form. */
export const formPositionRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const formTarget = contentTarget(deps.sql, { formId: 'form' });

    app.put(
      '/admin/taqyeem/forms/:formId/positions',
      {
        config: { ...BACKOFFICE, target: formTarget },
        schema: {
          tags: ['content'],
          summary: 'Move questions of a screening form to new positions (one measure, one transaction)',
          description:
            `${BACKOFFICE_NOTE} A form outside the caller’s scope (another organization) or unknown is 404; an ` +
            'organization admin moving a global form is 403. Body: 1 to 60 moves { itemId, formPosition, ifMatch } ' +
            '(0 or 61 is 422 VALIDATION_ERROR). Checks in order: 422 item_not_in_form (an item of another form), ' +
            '422 cross_measure (items of more than one measure), 412 PRECONDITION_FAILED reason stale (an ifMatch ' +
            'that is not the item’s current ETag r<revision>), 422 not_a_permutation (after the moves the ' +
            'measure’s positions must be exactly 1..n, i.e. the moves permute the positions they touch; an item ' +
            'moved twice also fails). Another move on the same form still running is 409 concurrent_move (the ' +
            'form row is locked NOWAIT; retry after reloading). Applied in one transaction: every moved item is ' +
            'parked at formPosition + 1000000, then set to formPosition; each moved item’s revision (ETag) is ' +
            'bumped; an operational form takes an item-bank pin (cause positions_moved). Answers every item of the ' +
            'measure in position order.',
          security,
          params: Type.Object({ formId: Type.String({ minLength: 1, maxLength: 64 }) }),
          body: MovesBody,
          response: { 200: MovedSchema, ...errorResponses(400, 401, 403, 404, 409, 412, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { formId } = request.params;
        const form = await screeningFormOwner(deps.sql, formId);
        if (!form || !canSee(caller, form.organizationId)) throw notFound('screening form');
        assertCanChange(caller, form.organizationId, 'screening form');
        const result = await moveFormPositions(deps.sql, { formId, moves: request.body.moves });
        switch (result.outcome) {
          case 'moved': {
            const { outcome: _, ...moved } = result;
            return moved;
          }
          case 'form_not_found':
            throw notFound('screening form');
          case 'concurrent_move':
            throw conflict('concurrent_move', 'another position move on this form is in progress');
          case 'refused':
            if (result.reason === 'stale') {
              throw new ApiError(412, 'PRECONDITION_FAILED', 'an item changed since ifMatch', {
                reason: 'stale',
                details: result.details,
              });
            }
            throw unprocessable(result.reason, 'position moves refused', result.details);
        }
      },
    );
  };
