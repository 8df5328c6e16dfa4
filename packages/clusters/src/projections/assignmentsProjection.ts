import { defineProjection, eventsOfType } from '@qiraa/projections';
import { BUNDLE_ASSIGNED, type ClusterEvent } from '../events';

/** `clu_assignments`: one row per BundleAssigned, keyed by its event id (idempotent per event). */
export const assignmentsProjection = defineProjection<ClusterEvent>({
  name: 'clusters_assignments',
  version: 1,
  handles: [BUNDLE_ASSIGNED],
  tables: ['clu_assignments'],
  async applyBatch({ sql, table }, events) {
    const rows = eventsOfType(events, BUNDLE_ASSIGNED).map((e) => ({
      assignment_id: e.eventId,
      student_id: e.data.studentId,
      class_id: e.data.classId,
      bundle_id: e.data.bundleId,
      cluster_key: e.data.clusterKey,
      generation_id: e.data.generationId,
      rule_set_version: e.data.ruleSetVersion,
      activated_by: e.data.activatedBy,
      activated_at: e.data.activatedAt,
    }));
    if (rows.length === 0) return;
    await sql`
      insert into ${sql(table('clu_assignments'))} (assignment_id, student_id, class_id, bundle_id, cluster_key,
        generation_id, rule_set_version, activated_by, activated_at)
      select * from jsonb_to_recordset(${sql.json(rows as never)}) as r(assignment_id uuid, student_id bigint,
        class_id text, bundle_id text, cluster_key text, generation_id uuid, rule_set_version text,
        activated_by bigint, activated_at timestamptz)
      on conflict (assignment_id) do nothing`;
  },
});
