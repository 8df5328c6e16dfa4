import { defineProjection, eventsOfType } from '@qiraa/projections';
import { CLUSTER_GENERATION_COMPUTED, type ClusterEvent } from '../events';

/**
 * `clu_generations` (one row per generation) and `clu_members` (the members of its clusters). Generations are
 * append-only and keyed by their event id, so a batch applied twice (inline, then the runner) inserts nothing
 * the second time.
 */
export const generationsProjection = defineProjection<ClusterEvent>({
  name: 'clusters_generations',
  version: 1,
  handles: [CLUSTER_GENERATION_COMPUTED],
  tables: ['clu_generations', 'clu_members'],
  async applyBatch({ sql, table }, events) {
    const gens = eventsOfType(events, CLUSTER_GENERATION_COMPUTED);
    if (gens.length === 0) return;
    const rows = gens.map((e) => ({
      generation_id: e.eventId,
      class_id: e.data.classId,
      organization_id: e.data.organizationId,
      rule_set_version: e.data.ruleSetVersion,
      min_cluster_size: e.data.minClusterSize,
      digest: e.data.digest,
      individual_review: e.data.individualReview,
      more_data_needed: e.data.moreDataNeeded,
      dropped_student_ids: e.data.droppedStudentIds,
      recommendation_ids: e.data.recommendationIds,
      created_at: e.data.createdAt,
      expires_at: e.data.expiresAt,
      stream_version: e.streamVersion.toString(),
    }));
    const members = gens.flatMap((e) =>
      e.data.clusters.flatMap((c) =>
        c.memberStudentIds.map((studentId) => ({
          generation_id: e.eventId,
          student_id: studentId,
          cluster_key: c.clusterKey,
          bundle_id: c.bundleId,
          anchor_skill_group: c.anchorSkillGroup,
          scaffold_tier: c.scaffoldTier,
          compatible_delivery_mode: c.compatibleDeliveryMode,
          sufficient_data: c.sufficientData,
          rule_ids: c.ruleIds,
        })),
      ),
    );
    await sql`
      insert into ${sql(table('clu_generations'))} (generation_id, class_id, organization_id, rule_set_version,
        min_cluster_size, digest, individual_review, more_data_needed, dropped_student_ids, recommendation_ids,
        created_at, expires_at, stream_version)
      select r.generation_id, r.class_id, r.organization_id, r.rule_set_version, r.min_cluster_size, r.digest,
             r.individual_review, r.more_data_needed,
             array(select jsonb_array_elements_text(r.dropped_student_ids))::bigint[],
             array(select jsonb_array_elements_text(r.recommendation_ids)),
             r.created_at, r.expires_at, r.stream_version
      from jsonb_to_recordset(${sql.json(rows as never)}) as r(generation_id uuid, class_id text,
        organization_id text, rule_set_version text, min_cluster_size smallint, digest text, individual_review jsonb,
        more_data_needed jsonb, dropped_student_ids jsonb, recommendation_ids jsonb, created_at timestamptz,
        expires_at timestamptz, stream_version bigint)
      on conflict (generation_id) do nothing`;
    if (members.length > 0) {
      await sql`
        insert into ${sql(table('clu_members'))} (generation_id, student_id, cluster_key, bundle_id,
          anchor_skill_group, scaffold_tier, compatible_delivery_mode, sufficient_data, rule_ids)
        select r.generation_id, r.student_id, r.cluster_key, r.bundle_id, r.anchor_skill_group, r.scaffold_tier,
               r.compatible_delivery_mode, r.sufficient_data, array(select jsonb_array_elements_text(r.rule_ids))
        from jsonb_to_recordset(${sql.json(members as never)}) as r(generation_id uuid, student_id bigint,
          cluster_key text, bundle_id text, anchor_skill_group text, scaffold_tier text,
          compatible_delivery_mode text, sufficient_data boolean, rule_ids jsonb)
        on conflict (generation_id, student_id) do nothing`;
    }
  },
});
