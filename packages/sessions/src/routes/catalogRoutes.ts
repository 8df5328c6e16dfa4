import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, unprocessable } from '@qiraa/http-kit';
import { callerOf, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { THEMES } from '../codes';
import { decodeCursor } from '../queries/blueprintQueries';
import { catalog, recommended } from '../queries/catalogQueries';
import { classOr404, requireClassTeacher } from '../queries/sessionAccess';
import { recentlyGenerated } from '../queries/sessionQueries';
import { CursorQuery, LimitQuery, literals, PAGE_DEFAULT, security } from '../schemas';
import { BlueprintSchema } from '../schemas/blueprintSchemas';
import { ClassIdQuery, SessionSummarySchema } from '../schemas/sessionSchemas';

const tags = ['sessions'];
export const TEACHER = { anyPermission: ['VIEW_OWN_CLASSES', 'SUPER_ADMIN'] as const };
export const TEACHER_NOTE =
  'ClassTeacher-scoped: a teacher of the class, or the super-admin; anyone else of the organization is 403; ' +
  'another organization’s or a missing class or session is 404 first.';

/** The blueprint catalog, the recommended list and a class's recent sessions (spec: Sessions). */
export const catalogRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const classTarget: TargetCheck = async (request) => {
      await classOr404(sql, callerOf(request), (request.query as { classId: string }).classId);
    };

    app.get(
      '/sessions/catalog',
      {
        config: { anyPermission: ['VIEW_OWN_CLASSES', 'RUN_BACKOFFICE'] },
        schema: {
          tags,
          summary: 'Browse operational session blueprints',
          description:
            'Teachers and the back office. Operational blueprints only (global and the caller’s organization’s), ' +
            'newest first. Filters: grade, theme, subSkillId (blueprints naming it), keyword (in the title or ' +
            'external id, or equal to a tag). Cursor pagination: pass nextCursor as cursor; a cursor not of ours ' +
            'is 422 reason invalid_cursor.',
          security,
          querystring: Type.Object({
            grade: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
            theme: Type.Optional(literals(THEMES)),
            subSkillId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            keyword: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
            cursor: CursorQuery,
            limit: LimitQuery,
          }),
          response: {
            200: Type.Object({
              blueprints: Type.Array(BlueprintSchema),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(401, 403, 422),
          },
        },
      },
      async (request) => {
        const { cursor, limit, ...filter } = request.query;
        const after = cursor === undefined ? null : decodeCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return catalog(sql, callerOf(request), filter, { limit: limit ?? PAGE_DEFAULT, after });
      },
    );

    app.get(
      '/sessions/catalog/recommended',
      {
        config: { ...TEACHER, target: classTarget },
        schema: {
          tags,
          summary: 'Blueprints recommended for a class, by active need weighted by support level',
          description:
            `${TEACHER_NOTE} Operational blueprints of the class’s grade, ranked by rule SRK-01: each active ` +
            'student counts once with the weight of their highest need on the blueprint’s sub-skills in their ' +
            'newest decided window (beginning: intensive, 3; developing: strategic, 2; on_track, strong, ' +
            'do_not_decide_yet or no decision: 0). limit: default 5, at most 20.',
          security,
          querystring: Type.Object({
            classId: ClassIdQuery,
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
          }),
          response: {
            200: Type.Object({
              classId: Type.String(),
              recommendations: Type.Array(
                Type.Object({
                  blueprint: BlueprintSchema,
                  score: Type.Integer(),
                  studentsWithNeed: Type.Integer(),
                  bySupportLevel: Type.Object({ intensive: Type.Integer(), strategic: Type.Integer() }),
                }),
              ),
            }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request) => {
        const cls = await requireClassTeacher(sql, callerOf(request), request.query.classId);
        return {
          classId: cls.id,
          recommendations: await recommended(
            sql,
            { id: cls.id, grade: cls.grade, organizationId: cls.organization_id },
            request.query.limit ?? 5,
          ),
        };
      },
    );

    app.get(
      '/sessions/recently-generated',
      {
        config: { ...TEACHER, target: classTarget },
        schema: {
          tags,
          summary: 'A class’s sessions, newest first (cancelled drafts included)',
          description:
            `${TEACHER_NOTE} Keyset pages: limit default 20, at most 100; pass nextCursor as cursor (null on the ` +
            'last page); a cursor not of ours is 422 reason invalid_cursor.',
          security,
          querystring: Type.Object({ classId: ClassIdQuery, cursor: CursorQuery, limit: LimitQuery }),
          response: {
            200: Type.Object({
              classId: Type.String(),
              sessions: Type.Array(SessionSummarySchema),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request) => {
        const cls = await requireClassTeacher(sql, callerOf(request), request.query.classId);
        const { cursor, limit = PAGE_DEFAULT } = request.query;
        const after = cursor === undefined ? null : decodeCursor(cursor);
        if (cursor !== undefined && after === null) {
          throw unprocessable('invalid_cursor', 'cursor is not a nextCursor of this list', [
            { field: 'cursor', issue: 'unknown cursor' },
          ]);
        }
        return { classId: cls.id, ...(await recentlyGenerated(sql, cls.id, { limit, after })) };
      },
    );
  };
