import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { monitoringOf } from '../queries/monitoringOf';
import { StudentIdParams, security } from '../schemas';
import { MonitoringQuery, MonitoringResponse } from '../schemas/monitoringSchemas';
import { requireStaffReach, staffReadConfig } from './staffReach';

/** GET /api/sse/students/{id}/monitoring (docs/decisions-monitoring.md). */
export const monitoringRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    app.get(
      '/sse/students/:id/monitoring',
      {
        config: staffReadConfig(sql),
        schema: {
          tags: ['decisions'],
          summary: 'A student’s progress monitoring: oral-reading fluency against the goal line',
          description:
            'Staff who reach the child (as for the skill status); a parent, the child or another teacher is 403; ' +
            'another organization’s or an unknown student is 404. For one academic year (`academicYear`, else ' +
            'the newest with a trend decision): the goal line (PMR-01: the first banded oral reading of the year ' +
            'to the EOY benchmark of the cut table it pinned), the probes, the least-squares trend and its ' +
            'decision (PMR-02: below_goal | on_goal | above_goal), or the safe stop `do_not_decide_yet` ' +
            '(PMR-09, holdReason no_baseline | no_goal | too_few_probes | too_short_span; a 200), and the open ' +
            'alerts (acute_regression PMR-03, trend_below_goal PMR-04). Writes nothing.',
          security,
          params: StudentIdParams,
          querystring: MonitoringQuery,
          response: { 200: MonitoringResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await requireStaffReach(sql, request, 'progress monitoring');
        return monitoringOf(sql, request.params.id, request.query);
      },
    );
  };
