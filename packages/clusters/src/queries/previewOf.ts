import type { AnySql } from '@qiraa/db';
import { activeClassIdsOfStudentQuery } from '@qiraa/identity';
import type { ClusterInputsPort } from '../engine/clusterInputs';
import { type TierBreakdownRow, tierBreakdownOf } from '../engine/tierBreakdown';
import { CLUSTER_RULE_SETS, CURRENT_CLUSTER_RULE_SET } from '../rules/ruleSet';

/** Where a child stands in the newest unexpired generation of their class (closed list). */
export const ASSIGNMENT_STATES = [
  'clustered',
  'individual_review',
  'more_data_needed',
  'not_clustered',
  'no_generation',
] as const;
export type AssignmentState = (typeof ASSIGNMENT_STATES)[number];

export interface StudentPreview {
  studentId: number;
  assignment: {
    state: AssignmentState;
    generationId: string | null;
    classId: string | null;
    ruleSetVersion: string | null;
    createdAt: string | null;
    expiresAt: string | null;
    clusterKey: string | null;
    bundleId: string | null;
    scaffoldTier: string | null;
    compatibleDeliveryMode: string | null;
    /** more_data_needed: the CLU-02 reason. */
    reason: string | null;
  };
  activeBundle: { assignmentId: string; bundleId: string; clusterKey: string; activatedAt: string } | null;
  tierBreakdown: TierBreakdownRow[];
}

/**
 * The Scaffold Distribution Preview: the child's place in the newest unexpired generation of an active class
 * (`not_clustered`: in none of its clusters or lists, e.g. a dropped cluster), the newest bundle assignment,
 * and the per-skill × task-type tier counts of the newest decided window. Writes nothing.
 */
export async function previewOf(
  sql: AnySql,
  inputs: ClusterInputsPort,
  studentId: number,
  now: Date = new Date(),
): Promise<StudentPreview> {
  const [[gen], [assigned], evidence] = await Promise.all([
    sql<
      {
        generation_id: string;
        class_id: string;
        rule_set_version: string;
        created_at: Date;
        expires_at: Date;
        individual_review: { studentId: number }[];
        more_data_needed: { studentId: number; reason: string }[];
        cluster_key: string | null;
        bundle_id: string | null;
        scaffold_tier: string | null;
        compatible_delivery_mode: string | null;
      }[]
    >`
      select g.generation_id, g.class_id, g.rule_set_version, g.created_at, g.expires_at, g.individual_review,
             g.more_data_needed, m.cluster_key, m.bundle_id, m.scaffold_tier, m.compatible_delivery_mode
      from clu_generations g
        left join clu_members m on m.generation_id = g.generation_id and m.student_id = ${studentId}
      where g.expires_at > ${now}
        and g.class_id in (${activeClassIdsOfStudentQuery(sql, studentId)})
      order by g.created_at desc, g.stream_version desc limit 1`,
    sql<{ assignment_id: string; bundle_id: string; cluster_key: string; activated_at: Date }[]>`
      select assignment_id, bundle_id, cluster_key, activated_at from clu_assignments
      where student_id = ${studentId} order by activated_at desc, assignment_id limit 1`,
    inputs.tierEvidenceOf(sql, studentId),
  ]);
  const rules = (gen && CLUSTER_RULE_SETS.get(gen.rule_set_version)) || CURRENT_CLUSTER_RULE_SET;
  const none = {
    generationId: null,
    classId: null,
    ruleSetVersion: null,
    createdAt: null,
    expiresAt: null,
    clusterKey: null,
    bundleId: null,
    scaffoldTier: null,
    compatibleDeliveryMode: null,
    reason: null,
  };
  let assignment: StudentPreview['assignment'] = { state: 'no_generation', ...none };
  if (gen) {
    const more = gen.more_data_needed.find((r) => r.studentId === studentId);
    const state: AssignmentState = gen.cluster_key
      ? 'clustered'
      : gen.individual_review.some((r) => r.studentId === studentId)
        ? 'individual_review'
        : more
          ? 'more_data_needed'
          : 'not_clustered';
    assignment = {
      state,
      generationId: gen.generation_id,
      classId: gen.class_id,
      ruleSetVersion: gen.rule_set_version,
      createdAt: gen.created_at.toISOString(),
      expiresAt: gen.expires_at.toISOString(),
      clusterKey: gen.cluster_key,
      bundleId: gen.bundle_id,
      scaffoldTier: gen.scaffold_tier,
      compatibleDeliveryMode: gen.compatible_delivery_mode,
      reason: more?.reason ?? null,
    };
  }
  return {
    studentId,
    assignment,
    activeBundle: assigned
      ? {
          assignmentId: assigned.assignment_id,
          bundleId: assigned.bundle_id,
          clusterKey: assigned.cluster_key,
          activatedAt: assigned.activated_at.toISOString(),
        }
      : null,
    tierBreakdown: tierBreakdownOf(rules, evidence),
  };
}
