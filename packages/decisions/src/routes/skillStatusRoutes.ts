import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { skillStatusOf } from '../queries/skillStatusOf';
import { SkillStatusQuery, SkillStatusResponse, StudentIdParams, security } from '../schemas';
import { requireStaffReach, staffReadConfig } from './staffReach';

const tags = ['decisions'];

/** GET /api/sse/students/{id}/skill-status (docs/decisions.md). */
export const skillStatusRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    app.get(
      '/sse/students/:id/skill-status',
      {
        config: staffReadConfig(sql),
        schema: {
          tags,
          summary: 'A student’s skill status per sub-skill for one screening window',
          description:
            'Staff who reach the child: a teacher of one of the child’s classes, the school’s principal, the ' +
            'organization’s admin and manager, the super-admin; a parent, the child or another teacher is 403; ' +
            'another organization’s or an unknown student is 404. One row per sub-skill the window’s evidence ' +
            'covers, from the decisions the rule engine appended (`SkillStatusDecided` on `decision-<id>`, the ' +
            'rule-set version pinned): status (beginning | developing | on_track | strong), adrRuleId (the ' +
            'adequacy rule that judged the evidence), ssrRuleId (the status rule that set it), doNotDecideYet, ' +
            'and the evidence summary. The safe stop is a 200: `safeStop: do_not_decide_yet` with status null ' +
            'and holdReason `insufficient_evidence` (ADR-09: too few items and no banded probe), `split_evidence` ' +
            '(ADR-03 + SSR-04: digital and oral two or more steps apart) or `not_assessed` (the no-evidence row: ' +
            'every attempt of the window voided, adrRuleId and ssrRuleId null). Query `window` (and ' +
            '`academicYear`) chooses the window; without them the newest window with decisions; none yet: ' +
            'window null and rows []. `windows` lists every window with decisions. Writes nothing.',
          security,
          params: StudentIdParams,
          querystring: SkillStatusQuery,
          response: { 200: SkillStatusResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await requireStaffReach(sql, request, 'skill status');
        return skillStatusOf(sql, request.params.id, request.query);
      },
    );
  };
