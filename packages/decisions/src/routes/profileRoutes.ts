import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyRequest } from 'fastify';
import { profileOf, profileWindowsOf, recommendationOf } from '../queries/profileOf';
import { StudentIdParams, security } from '../schemas';
import { ProfileQuery, ProfileResponse, RecommendationResponse } from '../schemas/profileSchemas';
import { requireStaffReach, staffReadConfig } from './staffReach';

const WHO =
  'Staff who reach the child (as for the skill status): a teacher of one of the child’s classes, the school’s ' +
  'principal, the organization’s admin and manager, the super-admin; a parent, the child or another teacher is ' +
  '403; another organization’s or an unknown student is 404. Query `window` (and `academicYear`) chooses the ' +
  'window; without them the newest window with a profile; none yet: null (a 200). Writes nothing.';

/** GET /api/sse/students/{id}/profile and /recommendation (docs/decisions-profiles.md). */
export const profileRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const config = staffReadConfig(sql);
    const staffOnly = (request: FastifyRequest, what: string) => requireStaffReach(sql, request, what);
    app.get(
      '/sse/students/:id/profile',
      {
        config,
        schema: {
          tags: ['decisions'],
          summary: 'A student’s profile for one screening window, from the skill statuses',
          description:
            `${WHO} The profile (ProfileResolved on decision-<id>, rule-set version pinned): each macro-domain’s ` +
            'status (PR1-01 the lowest of its sub-skills, PR1-09 held when one is do_not_decide_yet), the two ' +
            'anchor groups (word level: decoding and fluency; meaning: comprehension) as secure or support, and the ' +
            'profile code: PR2-01 ON_TRACK, PR2-02 WORD_LEVEL_FOCUS, PR2-03 MEANING_FOCUS, PR2-04 BROAD_FOCUS, or ' +
            'the guard PR2-00 DATA_INCOMPLETE (`safeStop`, a 200: an anchor domain held or not assessed; the ' +
            'student is left out of clustering).',
          security,
          params: StudentIdParams,
          querystring: ProfileQuery,
          response: { 200: ProfileResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await staffOnly(request, 'profile');
        const { windows, chosen } = await profileWindowsOf(sql, request.params.id, request.query);
        return {
          studentId: request.params.id,
          academicYear: chosen?.academicYear ?? request.query.academicYear ?? null,
          window: chosen?.window ?? request.query.window ?? null,
          windows,
          profile: chosen ? await profileOf(sql, request.params.id, chosen) : null,
        };
      },
    );
    app.get(
      '/sse/students/:id/recommendation',
      {
        config,
        schema: {
          tags: ['decisions'],
          summary: 'A student’s support-bundle recommendation for one screening window',
          description:
            `${WHO} From the window’s profile: BRR-01 the catalog bundle of the profile code and its anchor ` +
            'domain (the weakest of the anchor group) with its steps, the scaffold tier (Level_1..3) from the ' +
            'anchor’s status; BRR-09 `blocked_insufficient_evidence` on the guard profile (a 200), naming the next ' +
            'data action (screening_sitting | re_diagnostic_sitting | oral_reading_probe, with the domain and ' +
            'sub-skills); BRR-08 `no_catalog_bundle` when the catalog has none for the profile.',
          security,
          params: StudentIdParams,
          querystring: ProfileQuery,
          response: { 200: RecommendationResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await staffOnly(request, 'recommendation');
        const { windows, chosen } = await profileWindowsOf(sql, request.params.id, request.query);
        return {
          studentId: request.params.id,
          academicYear: chosen?.academicYear ?? request.query.academicYear ?? null,
          window: chosen?.window ?? request.query.window ?? null,
          windows,
          recommendation: chosen ? await recommendationOf(sql, request.params.id, chosen) : null,
        };
      },
    );
  };
