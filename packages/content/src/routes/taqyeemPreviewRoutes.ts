import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { BLUEPRINT_SCOPES, CELL_KINDS } from '../engine/blueprintTypes';
import { SECTION_KEYS, TEACHER_CELLS } from '../queries/catalogTypes';
import { cellScopeOf } from '../queries/cellScope';
import { contentTarget } from '../queries/contentTarget';
import { StudentItemSchema } from '../queries/itemViews';
import { PREVIEW_WARNINGS, taqyeemPreview } from '../queries/taqyeemPreview';
import {
  BACKOFFICE,
  BACKOFFICE_NOTE,
  GradeParam,
  literals,
  SectionKeySchema,
  security,
  TeacherCellSchema,
  WindowSchema,
} from '../schemas';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const PreviewQuery = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64 }),
  schoolId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  grade: GradeParam,
  window: WindowSchema,
});

const PreviewSchema = Type.Object({
  cell: Type.Object({
    source: Nullable(literals(BLUEPRINT_SCOPES)),
    kind: literals(CELL_KINDS),
    measures: Type.Array(Type.String()),
    subSkillIds: Type.Array(Type.String()),
  }),
  sessionPlan: Type.Object({
    sections: Type.Array(Type.Object({ key: SectionKeySchema, total: Type.Integer({ minimum: 1 }) }), {
      description: 'as the diagnostic start’s sections: { key, total } in the order the questions are served',
    }),
    minutesPerStudent: Type.Object(
      Object.fromEntries(TEACHER_CELLS.map((c) => [c, Type.Integer({ minimum: 0 })])) as Record<
        (typeof TEACHER_CELLS)[number],
        ReturnType<typeof Type.Integer>
      >,
      { description: 'per teacher-page cell: the catalog minutes of the cell’s measures filling it' },
    ),
    totalMinutes: Type.Integer({ minimum: 0 }),
  }),
  form: Nullable(
    Type.Object({
      id: Type.String(),
      externalId: Type.String(),
      version: Type.Integer(),
      status: literals(['operational'] as const),
    }),
  ),
  questions: Type.Array(
    Type.Object({
      student: StudentItemSchema,
      authoring: Type.Object({
        measureCode: Type.String(),
        formPosition: Type.Integer(),
        itemPattern: Type.String(),
        subSkillId: Type.String(),
        correctOptionKey: Type.String(),
        etag: Type.String(),
      }),
      meta: Type.Object({ sectionKey: literals(SECTION_KEYS), breakBefore: Type.Boolean() }),
    }),
  ),
  passages: Type.Array(
    Type.Object({ id: Type.String(), titleAr: Type.String(), bodyAr: Type.String(), wordCount: Type.Integer() }),
  ),
  measures: Type.Array(
    Type.Object({
      measureCode: Type.String(),
      labelAr: Type.String(),
      mode: literals(['digital', 'oral'] as const),
      teacherCell: TeacherCellSchema,
      expected: Nullable(Type.Integer({ description: 'form_item_count; null for an oral measure' })),
      count: Nullable(Type.Integer({ description: 'questions the previewed form holds; null for an oral measure' })),
      scoringStatus: literals(['normed', 'provisional'] as const),
    }),
  ),
  warnings: Type.Array(literals(PREVIEW_WARNINGS)),
});

/** GET /api/admin/taqyeem/preview: what a diagnostic sitting would show for a school, grade and window. */
export const taqyeemPreviewRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const scopeTarget = contentTarget(deps.sql, { organizationId: 'organization', schoolId: 'school' });

    app.get(
      '/admin/taqyeem/preview',
      {
        config: { ...BACKOFFICE, target: scopeTarget },
        schema: {
          tags: ['content'],
          summary: 'Preview the diagnostic sitting of a school (or organization), grade and window',
          description:
            `${BACKOFFICE_NOTE} Query organizationId (required), schoolId (a school of it), grade 1-4, window ` +
            'BOY/MOY/EOY; another organization or school is 404. Answers with Cache-Control: no-store. cell: the ' +
            'blueprint cell that applies (source global/org/school, kind measures/skills/not_screened/unset). ' +
            'form: the operational screening form the sitting is served from: the organization’s own newest ' +
            'before the newest global one (null when none). questions (measures cells only): the digital ' +
            'measures in cell order, each measure’s questions in form position order, as the student projection ' +
            '(never the correct option) plus an authoring block and meta { sectionKey, breakBefore }. ' +
            'breakBefore (grades 3 and 4 only): true on the question directly after the last question on a ' +
            'passage. sessionPlan: sections { key, total } in that order (a measure without questions has no ' +
            'section), minutes per student per teacher-page cell and their total. passages: those the ' +
            'questions read, in first-use order. measures: the cell’s measures with expected (form_item_count) ' +
            'and count (questions on the form). warnings (closed set, spec order): no_operational_form (a ' +
            'digital measure no visible operational form holds), invalid_cell (today’s blueprint rules refuse ' +
            'the stored cell), provisional_scoring_table, legacy_cell (kind skills), thin_pool (a digital measure ' +
            'with fewer questions on the form than expected), alternate_form (more than one operational form ' +
            'is visible for the grade and window), not_screened, unset.',
          security,
          querystring: PreviewQuery,
          response: { 200: PreviewSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const { grade, window, ...scopeQuery } = request.query;
        const scope = await cellScopeOf(deps.sql, callerOf(request), scopeQuery, 'read');
        void reply.header('cache-control', 'no-store');
        return taqyeemPreview(deps.sql, { ...scope, grade, window });
      },
    );
  };
