import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, errorResponses, SchoolDay, unprocessable, validationFailed } from '@qiraa/http-kit';
import { callerOf, reachOr404, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { closeWindow, openWindow, setWindowCalendar } from '../commands/windowCommands';
import type { ScreeningWindow } from '../engine/calendar';
import { type WindowCalendarState, windowCalendarState } from '../queries/windowState';
import {
  AcademicYearSchema,
  consecutiveYears,
  OrganizationIdSchema,
  security,
  tags,
  WindowCalendarSchema,
  WindowSchema,
} from '../schemas';

const WINDOW_ADMINS = ['MANAGE_ORG', 'RUN_BACKOFFICE'] as const;
const WHO =
  'Needs MANAGE_ORG or RUN_BACKOFFICE in the organization (the super-scope administrator: any organization; ' +
  'each of its calls writes a super_bypass audit event). Another organization or an unknown one is 404.';

const YearParams = Type.Object({ academicYear: AcademicYearSchema });
const WindowParams = Type.Object({ academicYear: AcademicYearSchema, window: WindowSchema });
const OrganizationBody = Type.Object({ organizationId: OrganizationIdSchema }, { additionalProperties: false });
const CalendarBody = Type.Object(
  {
    organizationId: OrganizationIdSchema,
    windows: Type.Array(
      Type.Object({ window: WindowSchema, startsOn: SchoolDay, endsOn: SchoolDay }, { additionalProperties: false }),
      { minItems: 1, maxItems: 3, description: 'BOY, MOY and EOY, each once' },
    ),
  },
  { additionalProperties: false },
);
const ClosedSchema = Type.Intersect([
  WindowCalendarSchema,
  Type.Object({
    stoppedSittings: Type.Integer({
      minimum: 0,
      description: 'open digital sittings of the window this call ended (SittingStopped reason window_closed)',
    }),
  }),
]);

/** The response copy of a calendar state (the schema's arrays are mutable). */
const view = (state: WindowCalendarState) => ({ ...state, windows: [...state.windows] });

function checkYear(academicYear: string) {
  if (!consecutiveYears(academicYear))
    throw validationFailed([{ field: 'academicYear', issue: 'must be two consecutive years' }]);
}

/** Screening windows of an organization's academic year: read, set the calendar, open or close one by hand. */
export const windowRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const target = tenantTarget(deps.sql, { organizationId: 'organization' });
    const config = { anyPermission: WINDOW_ADMINS, target };
    /** The schedule (training context) that ends what a closed window ends beyond its sittings. */
    const WINDOW_CLOSE = 'training.window-close';

    app.get(
      '/admin/assessment-windows',
      {
        config,
        schema: {
          tags,
          summary: 'The screening windows of an organization’s academic year',
          description:
            `${WHO} The three windows (BOY, MOY, EOY) with their dates, whether each is open now and why ` +
            '(openTrigger calendar: on its calendar days; manual: opened by an administrator before them), and ' +
            'any early close. source default: no calendar is stored for the year and the default one applies.',
          security,
          querystring: Type.Object({ organizationId: OrganizationIdSchema, academicYear: AcademicYearSchema }),
          response: { 200: WindowCalendarSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { organizationId, academicYear } = request.query;
        await reachOr404(deps.sql, request, 'organization', organizationId);
        checkYear(academicYear);
        return view(await windowCalendarState(deps.sql, organizationId, academicYear, deps.clock.now()));
      },
    );

    app.put(
      '/admin/assessment-windows/:academicYear',
      {
        config: { ...config, strictBody: true },
        schema: {
          tags,
          summary: 'Set an organization’s screening calendar for an academic year',
          description:
            `${WHO} Body { organizationId, windows: [{ window, startsOn, endsOn }] } (strict: another key is 400 ` +
            'UNKNOWN_FIELD) replaces the three windows’ dates. 422 VALIDATION_ERROR with reason the first ' +
            'problem and details { field: windows.<window>, issue } for every problem: window_missing, ' +
            'window_repeated, ends_before_start, outside_academic_year (August 1 to July 31), ' +
            'windows_overlap_or_out_of_order; nothing is written then. A window open before and not under the ' +
            'new dates is closed: its open digital sittings end (SittingStopped reason window_closed).',
          security,
          params: YearParams,
          body: CalendarBody,
          response: { 200: ClosedSchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { academicYear } = request.params;
        const { organizationId, windows } = request.body;
        await reachOr404(deps.sql, request, 'organization', organizationId);
        checkYear(academicYear);
        const result = await setWindowCalendar(deps, {
          organizationId,
          academicYear,
          actorUserId: callerOf(request).userId,
          at: deps.clock.now(),
          windows: windows.map((w) => ({
            window: w.window as ScreeningWindow,
            startsOn: w.startsOn,
            endsOn: w.endsOn,
          })),
        });
        if (result.kind === 'refused') {
          throw unprocessable(
            result.problems[0]!.code,
            'the calendar is refused',
            result.problems.map((p) => ({ field: `windows.${p.window}`, issue: p.code })),
          );
        }
        // A window the new dates closed ends the organization's open training days too (training.window-close).
        await deps.schedules?.runNow(WINDOW_CLOSE);
        return { ...view(result.state), stoppedSittings: result.stoppedSittings };
      },
    );

    app.post(
      '/admin/assessment-windows/:academicYear/:window/open',
      {
        config: { ...config, strictBody: true },
        schema: {
          tags,
          summary: 'Open a screening window by hand',
          description:
            `${WHO} Body { organizationId } (strict). Opens the window now (openTrigger manual before its ` +
            'calendar days; calendar again after an early close within them) until it is closed or its last ' +
            'calendar day has passed. 409 CONFLICT reason already_open, or another_window_open (at most one ' +
            'window is open); 422 VALIDATION_ERROR reason window_ended (its last day has passed).',
          security,
          params: WindowParams,
          body: OrganizationBody,
          response: { 200: WindowCalendarSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const { academicYear, window } = request.params;
        const { organizationId } = request.body;
        await reachOr404(deps.sql, request, 'organization', organizationId);
        checkYear(academicYear);
        const result = await openWindow(deps, {
          organizationId,
          academicYear,
          window: window as ScreeningWindow,
          actorUserId: callerOf(request).userId,
          at: deps.clock.now(),
        });
        if (result.kind === 'opened') return view(result.state);
        if (result.reason === 'window_ended') throw unprocessable('window_ended', 'the window’s last day has passed');
        throw conflict(result.reason, 'the window cannot be opened now');
      },
    );

    app.post(
      '/admin/assessment-windows/:academicYear/:window/close',
      {
        config: { ...config, strictBody: true },
        schema: {
          tags,
          summary: 'Close a screening window early',
          description:
            `${WHO} Body { organizationId } (strict). Closes the open window now, then ends every open digital ` +
            'sitting of the organization, year and window (SittingStopped reason window_closed; stoppedSittings ' +
            'counts them) and the organization’s training days opened before the close (endReason window_closed). ' +
            'Open oral readings are left to their teacher. Closing a window already closed early ' +
            'answers 200 again and ends any sitting still open; a window not open otherwise is 409 CONFLICT ' +
            'reason window_not_open.',
          security,
          params: WindowParams,
          body: OrganizationBody,
          response: { 200: ClosedSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const { academicYear, window } = request.params;
        const { organizationId } = request.body;
        await reachOr404(deps.sql, request, 'organization', organizationId);
        checkYear(academicYear);
        const result = await closeWindow(deps, {
          organizationId,
          academicYear,
          window: window as ScreeningWindow,
          actorUserId: callerOf(request).userId,
          at: deps.clock.now(),
        });
        if (result.kind === 'refused') throw conflict(result.reason, 'the window is not open');
        // The training context's rule ends the organization's open training days `window_closed` at once.
        await deps.schedules?.runNow(WINDOW_CLOSE);
        return { ...view(result.state), stoppedSittings: result.stoppedSittings };
      },
    );
  };
