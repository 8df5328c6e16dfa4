import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf, type Permission, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { SAFE_STOP_CODE, SAFE_STOP_HEADER } from '../engine/haltLabels';
import { childrenOf } from '../queries/childrenOf';
import { diagnosticsOf } from '../queries/diagnosticsOf';
import { growthOf } from '../queries/growthOf';
import { portalChild } from '../queries/portalChild';
import { recommendationsOf } from '../queries/recommendationsOf';
import { statusesOf } from '../queries/statusesOf';
import {
  ChildParams,
  ChildrenResponse,
  DiagnosticsResponse,
  GrowthResponse,
  RecommendationsQuery,
  RecommendationsResponse,
  security,
  tags,
} from '../schemas';
import { parentAnswer, parentFilter } from './parentAnswer';

/** Spec, Parent portal: any of these; a parent holds the first two, an administrator the last two. */
export const PORTAL_GATE: readonly Permission[] = ['VIEW_OWN_CHILDREN', 'VIEW_PARENT_REPORTS', 'RUN_BACKOFFICE'];

const CHILD_RULE =
  'A parent linked to the child, or the organization’s administrator (RUN_BACKOFFICE); teacher, principal, ' +
  'manager and student tokens 403. Another organization’s or an unknown child 404 first; a child of the ' +
  'organization the parent is not linked to 403. ';
const NUMBER_FREE =
  'Built through a typed allow-list (labels, first names and dates only) and the parent tier of the language ' +
  'filter on every string: no score, status token, profile code, rule id or internal id. The language rule set ' +
  'unavailable: 503 LANGUAGE_SAFETY_UNAVAILABLE.';

/** GET /api/parent/children and the three child reads (docs/parent-portal.md). */
export const portalRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const childTarget = tenantTarget(sql, { childId: 'student' });

    app.get(
      '/parent/children',
      {
        config: { anyPermission: PORTAL_GATE },
        schema: {
          tags,
          summary: 'The caller’s linked children',
          description:
            'The authenticated parent’s linked children (no parent id in the path): first name, grade in words, ' +
            'school name, last active (the latest recorded assessment activity, or null); [] is valid. ' +
            '`childId` is the address the portal’s child paths take, nothing to show. ' +
            NUMBER_FREE,
          security,
          response: { 200: ChildrenResponse, ...errorResponses(401, 403, 503) },
        },
      },
      async (request) => {
        const filter = await parentFilter(sql);
        return parentAnswer(request, filter, ChildrenResponse, await childrenOf(sql, callerOf(request).userId));
      },
    );

    app.get(
      '/parent/children/:childId/diagnostics',
      {
        config: { anyPermission: PORTAL_GATE, target: childTarget },
        schema: {
          tags,
          summary: 'A child’s completed diagnostics, a status label each',
          description:
            CHILD_RULE +
            'Completed digital diagnostics (voided ones left out), newest first: the window in words, the day, ' +
            'and one Arabic categorical label (one of the four status phrases, or “completed” when no measure ' +
            'could be levelled). ' +
            NUMBER_FREE,
          security,
          params: ChildParams,
          response: { 200: DiagnosticsResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request) => {
        const filter = await parentFilter(sql);
        const child = await portalChild(sql, callerOf(request), request.params.childId);
        return parentAnswer(request, filter, DiagnosticsResponse, await diagnosticsOf(sql, child));
      },
    );

    app.get(
      '/parent/children/:childId/growth',
      {
        config: { anyPermission: PORTAL_GATE, target: childTarget },
        schema: {
          tags,
          summary: 'A child’s growth: macro-domain trajectories and measures, as phrases',
          description:
            CHILD_RULE +
            'For the academic year with decisions: each macro-domain with a decided status, its phrase per ' +
            'window and its trajectory label (first look, growing, steady, time for more practice together); ' +
            '`measures`: the latest window’s decided sub-skills { labelAr, statusLabel }, statusLabel one of ' +
            'four phrases. A sub-skill the rules could not decide yet (do_not_decide_yet) is left out. ' +
            NUMBER_FREE,
          security,
          params: ChildParams,
          response: { 200: GrowthResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request) => {
        const filter = await parentFilter(sql);
        const child = await portalChild(sql, callerOf(request), request.params.childId);
        const growth = growthOf(child.firstName, await statusesOf(sql, child.studentId));
        return parentAnswer(request, filter, GrowthResponse, growth);
      },
    );

    app.get(
      '/parent/children/:childId/recommendations',
      {
        config: { anyPermission: PORTAL_GATE, target: childTarget },
        schema: {
          tags,
          summary: 'Up to five at-home suggestions for a window',
          description:
            CHILD_RULE +
            'Query window (default BOY). At most five suggestions from the versioned template library, one per ' +
            'macro-domain, the domains with the earliest status first, worded for the child’s gender. With no ' +
            `active profile assignment for the window: 200, halted true, the safe Arabic halt message, no ` +
            `suggestion, code ${SAFE_STOP_CODE} in the body (a machine key; code null otherwise) and in the header ` +
            `${SAFE_STOP_HEADER}. ` +
            NUMBER_FREE,
          security,
          params: ChildParams,
          querystring: RecommendationsQuery,
          response: { 200: RecommendationsResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request, reply) => {
        const filter = await parentFilter(sql);
        const child = await portalChild(sql, callerOf(request), request.params.childId);
        const { response, halted } = await recommendationsOf(sql, child, request.query.window ?? 'BOY');
        if (halted) reply.header(SAFE_STOP_HEADER, SAFE_STOP_CODE);
        return parentAnswer(request, filter, RecommendationsResponse, response);
      },
    );
  };
