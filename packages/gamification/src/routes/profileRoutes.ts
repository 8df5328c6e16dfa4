import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, studentReach } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { acknowledgeCelebration, pendingCelebrations } from '../queries/celebrations';
import { parentGamificationProfile } from '../queries/parentProfile';
import { gamificationProfile } from '../queries/profile';
import {
  CelebrationAckResponse,
  CelebrationParams,
  ParentProfileResponse,
  ProfileResponse,
  StudentParams,
} from '../schemas';

const MAY_SEE_PROFILE = new Set(['self', 'super', 'admin', 'teacher', 'parent', 'principal']);

export const profileRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/students/:id/gamification/profile',
      {
        schema: {
          tags: ['gamification'],
          summary: 'XP balance, avatar tier, streak and badges of a student',
          description:
            'Reachable by the student themself, a teacher of their class, a linked parent, the principal of their ' +
            'school and an admin. studentBadgeId and status are left out for the student themself, who is not ' +
            'shown a rescinded badge and gets the pending celebrations. A linked parent gets the number-free view ' +
            '(journeyAr, streakAr, badge names; docs/parent-portal.md).',
          security: [{ bearerAuth: [] }],
          params: StudentParams,
          response: {
            200: Type.Union([ProfileResponse, ParentProfileResponse]),
            ...errorResponses(401, 403, 404, 422, 503),
          },
        },
      },
      async (request) => {
        const reached = await studentReach(deps.sql, callerOf(request), request.params.id);
        if (!reached.reach || !MAY_SEE_PROFILE.has(reached.reach)) throw permissionDenied();
        if (reached.reach === 'parent') return parentGamificationProfile(deps.sql, request.params.id);
        if (reached.reach !== 'self') return gamificationProfile(deps.sql, request.params.id, false);
        const [profile, celebrations] = await Promise.all([
          gamificationProfile(deps.sql, request.params.id, true),
          pendingCelebrations(deps.sql, request.params.id),
        ]);
        return { ...profile, celebrations };
      },
    );

    app.post(
      '/students/:id/gamification/celebrations/:celebrationId/ack',
      {
        schema: {
          tags: ['gamification'],
          summary: 'The student acknowledges a celebration (it leaves the pending list)',
          description:
            'The student themself only (anyone else who reaches the student: 403). Repeating it answers 200 with ' +
            'the first acknowledgement. A celebration the student does not have: 404.',
          security: [{ bearerAuth: [] }],
          params: CelebrationParams,
          response: { 200: CelebrationAckResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const reached = await studentReach(deps.sql, callerOf(request), request.params.id);
        if (reached.reach !== 'self') throw permissionDenied();
        const result = await acknowledgeCelebration(
          deps.sql,
          request.params.id,
          request.params.celebrationId,
          deps.clock.now(),
        );
        if (result.kind === 'not_found') throw notFound('celebration');
        return { ...result.celebration, acknowledgedAt: result.acknowledgedAt };
      },
    );
  };
