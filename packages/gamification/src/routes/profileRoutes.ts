import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, permissionDenied } from '@qiraa/http-kit';
import { callerOf, studentReach } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { gamificationProfile } from '../queries/profile';
import { ProfileResponse, StudentParams } from '../schemas';

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
            'school and an admin. studentBadgeId and status are left out for the student themself.',
          security: [{ bearerAuth: [] }],
          params: StudentParams,
          response: { 200: ProfileResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const reached = await studentReach(deps.sql, callerOf(request), request.params.id);
        if (!reached.reach || !MAY_SEE_PROFILE.has(reached.reach)) throw permissionDenied();
        return gamificationProfile(deps.sql, request.params.id, reached.reach === 'self');
      },
    );
  };
