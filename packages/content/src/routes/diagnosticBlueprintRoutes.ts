import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiError,
  ErrorDetailSchema,
  errorResponses,
  notFound,
  PositiveInt4,
  unprocessable,
  validationFailed,
} from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { checkBlueprintCell } from '../commands/checkBlueprintCell';
import { deleteBlueprintCell } from '../commands/deleteBlueprintCell';
import { setBlueprintCell } from '../commands/setBlueprintCell';
import {
  BLUEPRINT_REFUSALS,
  BLUEPRINT_SCOPES,
  CELL_KINDS,
  type CellProposal,
  MEASURE_WARNING_CODES,
  STORED_KINDS,
} from '../engine/blueprintTypes';
import { blueprintCellView, blueprintGrid } from '../queries/blueprint';
import { cellScopeOf } from '../queries/cellScope';
import { contentTarget } from '../queries/contentTarget';
import { loadCatalog } from '../queries/loadCatalog';
import { storedCellAt } from '../queries/storedCells';
import { BACKOFFICE, BACKOFFICE_NOTE, GradeParam, literals, security, WindowSchema } from '../schemas';

const tags = ['content'];
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const ScopeQuery = Type.Object({
  organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'omit for the global cell' })),
  schoolId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a school of organizationId' })),
});
const DeleteQuery = Type.Object({
  ...ScopeQuery.properties,
  ifRevision: Type.Optional(
    Type.Integer({ ...PositiveInt4, description: '412 stale when the stored revision differs' }),
  ),
});
const CellParams = Type.Object({ grade: GradeParam, cycle: WindowSchema });

const Code = Type.String({ minLength: 1, maxLength: 64 });
const CellBody = Type.Object({
  measures: Type.Optional(
    Type.Array(Code, {
      maxItems: 20,
      description: 'ordered screen measure codes; [] stores kind not_screened (the grade is not screened)',
    }),
  ),
  subSkillIds: Type.Optional(
    Type.Array(Code, { minItems: 1, maxItems: 30, description: 'legacy kind skills: sub-skill ids' }),
  ),
  strict: Type.Optional(
    Type.Boolean({ default: false, description: 'a digital measure without an operational form is a refusal' }),
  ),
  acknowledgeProvisional: Type.Optional(
    Type.Boolean({ default: false, description: 'needed for a measure whose scoring table is provisional' }),
  ),
  ifRevision: Type.Optional(
    Type.Integer({ ...PositiveInt4, description: '412 stale when the stored revision differs' }),
  ),
});

const MeasureWarningSchema = Type.Object({
  code: literals(MEASURE_WARNING_CODES),
  measureCode: Nullable(Type.String()),
});
const ResolvedSchema = Type.Object({
  source: Nullable(literals(BLUEPRINT_SCOPES)),
  kind: literals(CELL_KINDS),
  measures: Type.Array(Type.String()),
  subSkillIds: Type.Array(Type.String()),
});
const CellViewSchema = Type.Object({
  grade: Type.Integer(),
  cycle: WindowSchema,
  scope: literals(BLUEPRINT_SCOPES),
  stored: Nullable(
    Type.Object({
      kind: literals(STORED_KINDS),
      measures: Type.Array(Type.String()),
      subSkillIds: Type.Array(Type.String()),
      acknowledgeProvisional: Type.Boolean(),
      revision: Type.Integer({ minimum: 1 }),
      updatedAt: Type.String({ format: 'date-time' }),
      updatedBy: Nullable(Type.Integer()),
    }),
  ),
  resolved: ResolvedSchema,
  measureWarnings: Type.Array(MeasureWarningSchema),
});
const GridSchema = Type.Object({
  scope: literals(BLUEPRINT_SCOPES),
  organizationId: Nullable(Type.String()),
  schoolId: Nullable(Type.String()),
  cells: Type.Array(
    Type.Object({
      grade: Type.Integer(),
      cycle: WindowSchema,
      resolved: ResolvedSchema,
      storedScopes: Type.Array(literals(BLUEPRINT_SCOPES), { description: 'scopes of the chain storing this cell' }),
    }),
  ),
});
const ValidateSchema = Type.Object({
  ok: Type.Boolean(),
  reason: Type.Optional(literals([...BLUEPRINT_REFUSALS, 'stale'] as const)),
  details: Type.Optional(Type.Array(ErrorDetailSchema)),
  measureWarnings: Type.Array(MeasureWarningSchema),
});

const SCOPE_NOTE =
  'Scope: query organizationId and schoolId name the cell (both absent: the global cell; schoolId needs ' +
  'organizationId, else 422 VALIDATION_ERROR). Another organization, or a school outside the organization, is ' +
  '404. Resolution: the school cell, else the organization cell, else the global cell, else kind unset.';
const CHECKS =
  'Checks, in this order (the first failing one answers; details name every offending entry): catalog_gap (a code ' +
  'the catalog does not have), duplicate_measure, measure_not_in_grade, carrier_conflict (two oral measures ' +
  'filling one teacher-page cell, e.g. orf_text and orf_short_text), no_digital_measure, ' +
  'provisional_not_publishable_globally (a provisional measure in a global cell, even acknowledged), ' +
  'provisional_scoring_table (a provisional measure without acknowledgeProvisional: true), no_operational_form ' +
  '(strict: true and a digital measure no operational form of that grade and window visible at the scope holds; ' +
  'without strict it is a warning). A legacy subSkillIds cell: catalog_gap, duplicate_sub_skill, ' +
  'sub_skill_not_in_grade. measureWarnings (closed): no_operational_form, thin_pool (the served form holds fewer ' +
  'questions than the measure’s form_item_count), provisional_scoring_table (acknowledged), legacy_cell.';

/** Exactly one of measures and subSkillIds; both or neither is a malformed body. */
function proposalOf(body: {
  measures?: string[];
  subSkillIds?: string[];
  strict?: boolean;
  acknowledgeProvisional?: boolean;
  ifRevision?: number;
}): CellProposal {
  const { measures, subSkillIds, ...options } = body;
  if ((measures === undefined) === (subSkillIds === undefined)) {
    throw validationFailed([{ field: 'measures', issue: 'send exactly one of measures or subSkillIds' }]);
  }
  return { content: measures !== undefined ? { measures } : { subSkillIds: subSkillIds as string[] }, ...options };
}

const stale = (message: string) => new ApiError(412, 'PRECONDITION_FAILED', message, { reason: 'stale' });

/** The diagnostic blueprint: GET/PUT of one cell plus the designed list, delete and validate (docs/diagnostic-blueprint.md). */
export const diagnosticBlueprintRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const scopeTarget = contentTarget(deps.sql, { organizationId: 'organization', schoolId: 'school' });

    app.get(
      '/admin/diagnostic-blueprint',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'The diagnostic blueprint at a scope: every grade × window',
          description:
            `${BACKOFFICE_NOTE} ${SCOPE_NOTE} Returns the 12 cells (grades 1-4 × BOY, MOY, EOY) with the cell ` +
            'that applies (source, kind, measures, subSkillIds) and storedScopes: which scopes of the chain store a ' +
            'cell, so an override is visible before it is changed or deleted. Read-only; global cells are readable ' +
            'by every back-office caller.',
          security,
          querystring: ScopeQuery,
          response: { 200: GridSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => blueprintGrid(deps.sql, await cellScopeOf(deps.sql, callerOf(request), request.query, 'read')),
    );

    app.get(
      '/admin/diagnostic-blueprint/:grade/:cycle',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'One diagnostic blueprint cell at a scope',
          description:
            `${BACKOFFICE_NOTE} ${SCOPE_NOTE} grade 1-4 and cycle BOY, MOY or EOY (else 422). stored: the cell ` +
            'stored at exactly this scope, or null. resolved: the cell that applies here. measureWarnings: the ' +
            'write-time warnings re-computed for the resolved cell against today’s catalog and forms, plus ' +
            'invalid_cell when today’s checks would refuse it.',
          security,
          params: CellParams,
          querystring: ScopeQuery,
          response: { 200: CellViewSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const scope = await cellScopeOf(deps.sql, callerOf(request), request.query, 'read');
        return blueprintCellView(deps.sql, { ...scope, grade: request.params.grade, window: request.params.cycle });
      },
    );

    app.put(
      '/admin/diagnostic-blueprint/:grade/:cycle',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'Store one diagnostic blueprint cell at a scope',
          description:
            `${BACKOFFICE_NOTE} ${SCOPE_NOTE} The super-admin writes any scope; an organization admin writes their ` +
            'organization and its schools (the global cell: 403). Body: exactly one of measures (ordered screen ' +
            'measure codes; [] stores kind not_screened) or subSkillIds (legacy kind skills); both or neither is 422 ' +
            `VALIDATION_ERROR. ${CHECKS} ifRevision: 412 PRECONDITION_FAILED reason stale when it differs from the ` +
            'stored revision (or nothing is stored). Replaces the scope’s cell and bumps its revision; answers the ' +
            'GET shape with the write’s measureWarnings.',
          security,
          params: CellParams,
          querystring: ScopeQuery,
          body: CellBody,
          response: { 200: CellViewSchema, ...errorResponses(400, 401, 403, 404, 412, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const scope = await cellScopeOf(deps.sql, caller, request.query, 'write');
        const address = { ...scope, grade: request.params.grade, window: request.params.cycle };
        const result = await setBlueprintCell(deps.sql, {
          ...address,
          body: proposalOf(request.body),
          updatedBy: caller.userId,
        });
        if (!result.ok && result.reason === 'stale') throw stale('the cell changed since ifRevision');
        if (!result.ok) throw unprocessable(result.reason, 'blueprint cell refused', result.details);
        const view = await blueprintCellView(deps.sql, address);
        return { ...view, measureWarnings: result.measureWarnings };
      },
    );

    app.delete(
      '/admin/diagnostic-blueprint/:grade/:cycle',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'Remove a scope’s blueprint cell so the next scope up applies',
          description:
            `${BACKOFFICE_NOTE} ${SCOPE_NOTE} Deletes the cell stored at exactly this scope (a school override, ` +
            'an organization override, or — super-admin only, else 403 — the global cell); nothing stored there is ' +
            '404. ifRevision (query): 412 stale when it differs. Answers the GET shape after the removal (stored ' +
            'null, resolved from the next scope up).',
          security,
          params: CellParams,
          querystring: DeleteQuery,
          response: { 200: CellViewSchema, ...errorResponses(401, 403, 404, 412, 422) },
        },
      },
      async (request) => {
        const { ifRevision, ...scopeQuery } = request.query;
        const scope = await cellScopeOf(deps.sql, callerOf(request), scopeQuery, 'write');
        const address = { ...scope, grade: request.params.grade, window: request.params.cycle };
        const result = await deleteBlueprintCell(deps.sql, { ...address, ...(ifRevision ? { ifRevision } : {}) });
        if (!result.ok && result.reason === 'not_stored') throw notFound('blueprint cell');
        if (!result.ok) throw stale('the cell changed since ifRevision');
        return blueprintCellView(deps.sql, address);
      },
    );

    app.post(
      '/admin/diagnostic-blueprint/:grade/:cycle/validate',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags,
          summary: 'Dry run of a blueprint PUT: would this cell be accepted, with which warnings',
          description:
            `${BACKOFFICE_NOTE} ${SCOPE_NOTE} Same body, scope rules (403 on the global cell for an organization ` +
            'admin) and checks as the PUT, in the same order, through the same code; writes nothing. 200 ' +
            '{ ok: true, measureWarnings } or { ok: false, reason, details, measureWarnings: [] } where reason is ' +
            'one of the PUT’s 422 reasons or stale (ifRevision differs). A body with both or neither of measures ' +
            'and subSkillIds is still 422 VALIDATION_ERROR (malformed, not a refusal).',
          security,
          params: CellParams,
          querystring: ScopeQuery,
          body: CellBody,
          response: { 200: ValidateSchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const scope = await cellScopeOf(deps.sql, callerOf(request), request.query, 'write');
        const address = { ...scope, grade: request.params.grade, window: request.params.cycle };
        const proposal = proposalOf(request.body);
        if (proposal.ifRevision !== undefined) {
          const stored = await storedCellAt(deps.sql, address);
          if (stored?.revision !== proposal.ifRevision) {
            return {
              ok: false,
              reason: 'stale' as const,
              details: [{ field: 'ifRevision', issue: `stored revision is ${stored?.revision ?? 'none'}` }],
              measureWarnings: [],
            };
          }
        }
        const check = await checkBlueprintCell(deps.sql, await loadCatalog(deps.sql), address, proposal);
        if (!check.ok) return { ok: false, reason: check.reason, details: check.details, measureWarnings: [] };
        return { ok: true, measureWarnings: check.measureWarnings };
      },
    );
  };
