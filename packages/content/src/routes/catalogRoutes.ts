import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { loadCatalog } from '../queries/loadCatalog';
import { BACKOFFICE, BACKOFFICE_NOTE, security } from '../schemas';

const Labelled = { id: Type.String(), labelAr: Type.String() };
const GradeRange = { gradeMin: Type.Integer(), gradeMax: Type.Integer() };

const CatalogResponse = Type.Object({
  version: Type.String({ description: 'catalog release' }),
  grades: Type.Array(Type.Object({ grade: Type.Integer(), nameAr: Type.String() })),
  windows: Type.Array(Type.Object({ code: Type.String(), nameAr: Type.String(), ordinal: Type.Integer() })),
  macroDomains: Type.Array(Type.Object(Labelled)),
  skills: Type.Array(Type.Object({ ...Labelled, macroDomainId: Type.String() })),
  subSkills: Type.Array(Type.Object({ ...Labelled, skillId: Type.String(), ...GradeRange })),
  measures: Type.Array(
    Type.Object({
      measureCode: Type.String(),
      labelAr: Type.String(),
      skillId: Type.String(),
      ...GradeRange,
      mode: Type.String(),
      teacherCell: Type.String(),
      sectionKey: Type.Union([Type.String(), Type.Null()]),
      formItemCount: Type.Union([Type.Integer(), Type.Null()]),
      minutesPerStudent: Type.Integer(),
      scoringStatus: Type.String(),
    }),
  ),
  itemPatterns: Type.Array(Type.Object({ code: Type.String(), labelAr: Type.String(), needsPassage: Type.Boolean() })),
  trainingLevels: Type.Array(Type.Object({ number: Type.Integer(), nameAr: Type.String() })),
  wordListCells: Type.Array(
    Type.Object({ grade: Type.Integer(), skillId: Type.String(), minWords: Type.Integer(), maxWords: Type.Integer() }),
  ),
  supportBundles: Type.Array(
    Type.Object({
      ...Labelled,
      profileCode: Type.String({ description: 'the decision rule set’s profile code (PR2-nn) the bundle serves' }),
      anchorMacroDomainId: Type.String(),
      ...GradeRange,
      steps: Type.Array(
        Type.Object({
          ordinal: Type.Integer(),
          stepCode: Type.String(),
          labelAr: Type.String(),
          skillId: Type.String(),
        }),
      ),
    }),
    { description: 'support bundles with their steps (docs/decisions-profiles.md)' },
  ),
});

/** GET /api/admin/content/catalog: the lists the back-office builders choose from. */
export const catalogRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/content/catalog',
      {
        config: BACKOFFICE,
        schema: {
          tags: ['content'],
          summary: 'The content catalogs (grades, windows, domains, skills, sub-skills, measures, patterns, levels)',
          description:
            `${BACKOFFICE_NOTE} Catalogs are global and versioned (seeded by migration); every back-office caller ` +
            'reads the same release. Designed here (the spec names the catalogs, not a route).',
          security,
          response: { 200: CatalogResponse, ...errorResponses(401, 403) },
        },
      },
      async () => {
        const {
          skillById: _s,
          subSkillById: _ss,
          measureByCode: _m,
          patternByCode: _p,
          ...catalog
        } = await loadCatalog(deps.sql);
        return catalog;
      },
    );
  };
