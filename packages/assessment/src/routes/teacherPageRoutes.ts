import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, SchoolDay } from '@qiraa/http-kit';
import { callerOf, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { type TObject, type TSchema, Type } from 'typebox';
import { BLUEPRINT_STATUSES } from '../engine/blueprintStatus';
import type { ScreeningWindow } from '../engine/calendar';
import { CELL_STATUSES } from '../engine/cellStatus';
import { PAGE_CELLS } from '../events';
import { heldClassOr404 } from '../queries/heldClass';
import { taqyeemPage } from '../queries/taqyeemPage';
import { ClassIdSchema, literals, Nullable, security, tags, WindowSchema } from '../schemas';

const perCell = (schema: TSchema, description?: string): TObject =>
  Type.Object(Object.fromEntries(PAGE_CELLS.map((c) => [c, schema])), description ? { description } : {});

const CellSchema = Type.Object({
  status: literals(CELL_STATUSES),
  attemptId: Nullable(Type.String({ format: 'uuid', description: 'the latest attempt; null when none shows' })),
  at: Nullable(Type.String({ format: 'date-time' })),
  result: Nullable(
    Type.Record(Type.String(), Type.Unknown(), { description: 'the ended attempt’s summary (per kind)' }),
  ),
  restarts: Type.Integer({ minimum: 0, description: 'voided attempts of this cell in the window' }),
});

const Count = Type.Integer({ minimum: 0 });

const TdvTaqyeem = Type.Object(
  {
    classId: Type.String(),
    grade: Type.Integer({ minimum: 1, maximum: 4 }),
    academicYear: Type.String(),
    window: WindowSchema,
    windows: Type.Array(
      Type.Object({ window: WindowSchema, startsOn: SchoolDay, endsOn: SchoolDay, open: Type.Boolean() }),
    ),
    windowState: Type.Object({
      openTrigger: Nullable(literals(['calendar', 'manual'] as const)),
      canOpen: Type.Boolean({ description: 'the caller could open the window now (a teacher never can)' }),
    }),
    blueprint: Type.Object({
      status: literals(BLUEPRINT_STATUSES),
      measures: Type.Array(
        Type.Object({
          measureCode: Type.String(),
          labelAr: Type.String(),
          mode: literals(['digital', 'oral'] as const),
          cell: literals(PAGE_CELLS),
          minutesPerStudent: Count,
        }),
      ),
      catalogVersion: Type.String({ description: 'the content catalog release the minutes come from' }),
    }),
    summary: Type.Object({
      enrolled: Count,
      complete: perCell(Count, 'students whose cell is done'),
      remaining: perCell(Count, 'enrolled minus complete; 0 for an unavailable cell'),
    }),
    dayPlan: perCell(
      Type.Object({ studentCount: Count, minutesPerStudent: Count, totalMinutes: Count }),
      'studentCount: the cell’s remaining students; minutesPerStudent: catalog minutes of the cell’s measures',
    ),
    students: Type.Array(
      Type.Object({
        studentId: Type.Integer(),
        firstName: Type.String(),
        cells: perCell(CellSchema),
      }),
    ),
  },
  { title: 'TdvTaqyeem' },
);

/** GET /api/teacher/classes/{classId}/taqyeem: the teacher assessment page of a class and window. */
export const teacherPageRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/teacher/classes/:classId/taqyeem',
      {
        config: {
          anyPermission: ['VIEW_OWN_CLASSES', 'MANAGE_ORG', 'RUN_BACKOFFICE'],
          target: tenantTarget(deps.sql, { classId: 'class' }),
        },
        schema: {
          tags,
          summary: 'The teacher assessment page of a class (TdvTaqyeem)',
          description:
            'A TEACHER holding the class (ClassTeacher); a class not held, another organization’s or an unknown ' +
            'one is 404. Organization administrators (MANAGE_ORG, RUN_BACKOFFICE) may read it too (canOpen ' +
            'true for them when the window could be opened now); principals, managers, parents and students ' +
            'are 403. Query window (BOY, MOY, EOY); omitted: the open window, else the last one that has ' +
            'started, else BOY. Counts only (no class percentage, no class login code); not audited. Cell ' +
            'status: done, in_progress, not_started, stopped, restarted_pending (the latest attempt was voided, ' +
            'no replacement yet), unavailable (the blueprint has no measure of the cell for the grade and ' +
            'window). restarts: voided attempts of the cell.',
          security,
          params: Type.Object({ classId: ClassIdSchema }),
          querystring: Type.Object({ window: Type.Optional(WindowSchema) }),
          response: { 200: TdvTaqyeem, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const cls = await heldClassOr404(deps.sql, caller, request.params.classId, true);
        return taqyeemPage(
          deps.sql,
          caller,
          cls,
          request.query.window as ScreeningWindow | undefined,
          deps.clock.now(),
        );
      },
    );
  };
