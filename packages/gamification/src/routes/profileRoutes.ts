import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, notFound, permissionDenied } from '@qiraa/http-kit';
import { callerOf, studentReach } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { Type } from 'typebox';
import { acknowledgeCelebration, pendingCelebrations } from '../queries/celebrations';
import { parentGamificationProfile } from '../queries/parentProfile';
import { gamificationProfile } from '../queries/profile';
import { type Served, servedBadges } from '../queries/servedBadges';
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
            '(journeyAr, streakAr, badge names; docs/parent-portal.md). Every badge name and description (and a ' +
            'parent’s phrases) passes the language-safety rule set in force (a parent’s: its parent tier): a refused ' +
            'text is served as the filter’s rewrite; an unavailable rule set is 503 LANGUAGE_SAFETY_UNAVAILABLE.',
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
        // Loaded before the profile is read: an unavailable rule set is 503 and nothing is served unfiltered.
        const filter = await loadLanguageSafety(deps.sql);
        const logged = <T>({ value, rewritten }: Served<T>): T => {
          if (rewritten.length > 0) {
            request.log.warn(
              { rewritten, ruleSetVersion: filter.version },
              'gamification profile: the language filter rewrote a badge text or phrase (a text to revise)',
            );
          }
          return value;
        };
        if (reached.reach === 'parent') {
          return logged(await parentGamificationProfile(deps.sql, request.params.id, filter));
        }
        const self = reached.reach === 'self';
        const [profile, celebrations] = await Promise.all([
          gamificationProfile(deps.sql, request.params.id, self),
          self ? pendingCelebrations(deps.sql, request.params.id) : undefined,
        ]);
        const badges = logged(servedBadges(profile.badges, filter));
        return celebrations ? { ...profile, badges, celebrations } : { ...profile, badges };
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
