import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BigintId, errorResponses } from '@qiraa/http-kit';
import { callerOf, studentReach, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { replayDecisions } from '../replay/replayDecisions';
import { DecisionReplayResponse, security } from '../schemas';

const ReplayBody = Type.Object({ studentId: BigintId });

/** POST /api/admin/decisions/replay: re-decide one student's skill statuses from the evidence and compare. */
export const decisionReplayRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/decisions/replay',
      {
        config: { anyPermission: ['RUN_BACKOFFICE'], target: tenantTarget(deps.sql, { studentId: 'student' }) },
        schema: {
          tags: ['decisions'],
          summary: 'Replay one student’s skill-status decisions and report drift from the read model',
          description:
            '`derived`: `decideSkillStatuses` run again over the student’s evidence streams, each key ' +
            '(academicYear, window, subSkillId) with the rule-set version its latest `SkillStatusDecided` pinned ' +
            '(a key never decided: the current version). `stored`: the `dec_skill_status` row. `drift` lists the ' +
            'fields that differ per key, `hasDrift` when any key drifted. Writes nothing; a drifted read model ' +
            'is repaired with `qiraa projections rebuild decisions_skill_status`. RUN_BACKOFFICE; an ' +
            'organization admin reaches only students of their organization (another organization or an ' +
            'unknown student: 404).',
          security,
          body: ReplayBody,
          response: { 200: DecisionReplayResponse, ...errorResponses(401, 403, 404, 422, 503) },
        },
      },
      async (request) => {
        await studentReach(deps.sql, callerOf(request), request.body.studentId);
        return replayDecisions(deps, request.body.studentId);
      },
    );
  };
