import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorResponses, permissionDenied, refusalResponses } from '@qiraa/http-kit';
import {
  callerOf,
  inOrganizationOr404,
  reachOr404,
  studentOrganizations,
  studentReach,
  tenantTarget,
} from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyRequest } from 'fastify';
import { bulkActivate } from '../commands/bulkActivate';
import { classForRecompute } from '../commands/classOf';
import { recomputeClusters } from '../commands/recomputeClusters';
import type { ClusterInputsPort } from '../engine/clusterInputs';
import { previewOf } from '../queries/previewOf';
import {
  BulkActivateBody,
  BulkActivateResponse,
  ClassIdParams,
  PreviewResponse,
  RecomputeResponse,
  StudentIdParams,
  security,
  tags,
} from '../schemas';

/** The three cluster routes (docs/clusters.md). */
export const clusterRoutes =
  (deps: ContextDeps, inputs: ClusterInputsPort): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const clusterDeps = { sql, store: deps.store, inputs, now: () => deps.clock.now() };
    /** Tenant rule of bulk activation: every confirmed member a student of the caller's organization, else 404. */
    const membersOr404 = async (request: FastifyRequest) => {
      const ids = (request.body as { confirmedMemberStudentIds?: unknown } | undefined)?.confirmedMemberStudentIds;
      if (!Array.isArray(ids) || ids.length === 0) return;
      const organizations = await studentOrganizations(sql, ids.map(String));
      if (organizations.length !== new Set(ids).size) throw new ApiError(404, 'NOT_FOUND', 'student not found');
      for (const organizationId of organizations) inOrganizationOr404(callerOf(request), organizationId, 'student');
    };

    app.post(
      '/cluster/recompute/:classId',
      {
        config: {
          anyPermission: ['VIEW_OWN_CLASSES', 'RUN_BACKOFFICE'],
          target: tenantTarget(sql, { classId: 'class' }),
        },
        schema: {
          tags,
          summary: 'Recompute a class’s clusters (a new append-only generation)',
          description:
            'The class teacher (VIEW_OWN_CLASSES) or RUN_BACKOFFICE; another teacher of the organization is 403; ' +
            'another organization’s or an unknown class is 404. Groups the active students by the canonical ' +
            'clusterKey of bundle_id, anchor_skill_group, scaffold_tier (MERGE_L1_L2 for teacher-led delivery), ' +
            'compatible_delivery_mode and sufficient_data with the pinned rule set (ruleSetVersion); lists ' +
            'individualReview (open acute_regression alert, CLU-01) and moreDataNeeded (DATA_INCOMPLETE, ' +
            'do_not_decide_yet or no recommendation, CLU-02); a cluster below the school’s minimum size (default ' +
            '2, 3 to 5 per school) is dropped silently. Writes a generation expiring at createdAt + 60 days; ' +
            'unchanged inputs answer the current generation with created false and write nothing.',
          security,
          params: ClassIdParams,
          response: { 200: RecomputeResponse, ...errorResponses(401, 403, 404, 409, 422, 503) },
        },
      },
      async (request) => {
        const cls = await classForRecompute(sql, callerOf(request), request.params.classId);
        const g = await recomputeClusters(clusterDeps, cls);
        const c = g.computation;
        return {
          generationId: g.generationId,
          classId: g.classId,
          ruleSetVersion: c.ruleSetVersion,
          minClusterSize: c.minClusterSize,
          createdAt: g.createdAt,
          expiresAt: g.expiresAt,
          created: g.created,
          clusters: c.clusters,
          individualReview: c.individualReview,
          moreDataNeeded: c.moreDataNeeded,
        };
      },
    );

    app.get(
      '/cluster/student/:id/preview',
      {
        config: {
          anyPermission: ['VIEW_OWN_CLASSES', 'MANAGE_ORG'],
          target: async (request) => reachOr404(sql, request, 'student', (request.params as { id: number }).id),
        },
        schema: {
          tags,
          summary: 'Scaffold Distribution Preview of a student',
          description:
            'A teacher of the child’s class or an administrator; another teacher, principals, managers, parents ' +
            'and the child are 403; another organization’s or an unknown student is 404. The child’s place in ' +
            'the newest unexpired generation (clustered, individual_review, more_data_needed, not_clustered, ' +
            'no_generation), the newest bundle assignment, and per skill × task type the evidence counts at ' +
            'Level_1, Level_2 and Level_3. Writes nothing.',
          security,
          params: StudentIdParams,
          response: { 200: PreviewResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const reached = await studentReach(sql, callerOf(request), request.params.id);
        if (reached.reach !== 'teacher' && reached.reach !== 'admin' && reached.reach !== 'super') {
          throw permissionDenied('the child’s teacher or an administrator reads the cluster preview');
        }
        return previewOf(sql, inputs, request.params.id, deps.clock.now());
      },
    );

    app.post(
      '/cluster/bulk-activate',
      {
        config: {
          anyPermission: ['VIEW_OWN_CLASSES'],
          target: membersOr404,
        },
        schema: {
          tags,
          summary: 'Activate a cluster’s support bundle for every confirmed member (all or nothing)',
          description:
            'The teacher of the members’ class; administrators, principals, managers, parents and students are ' +
            '403; a student of another organization or an unknown one is 404. Recomputes the class inside the ' +
            'transaction: a named student who is excluded → 422 EXCLUDED_MEMBER; a cluster whose key is gone or ' +
            'whose members differ from confirmedMemberStudentIds → 409 CLUSTER_STALE; a non-empty ' +
            'memberAdjustments → 422 MEMBER_ADJUSTMENTS_NOT_SUPPORTED; no assignment is written on any refusal. ' +
            'Otherwise one bundle assignment per member, and parent_tsp_activation to each member’s linked parents.',
          security,
          body: BulkActivateBody,
          response: {
            201: BulkActivateResponse,
            ...errorResponses(401, 403, 404, 409, 422),
            ...refusalResponses({ 422: ['members_span_classes'] }),
          },
        },
      },
      async (request, reply) => {
        // The route's target runs only for a refused caller; a teacher's members are checked here (404 first).
        await membersOr404(request);
        const activation = await bulkActivate(clusterDeps, callerOf(request), request.body);
        return reply.status(201).send(activation);
      },
    );
  };
