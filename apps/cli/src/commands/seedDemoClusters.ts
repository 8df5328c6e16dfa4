import { decisionsInputs, recomputeClusters } from '@qiraa/clusters';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';

/**
 * The demo classes' cluster generations (docs/clusters.md): one recompute per class after the BOY screening
 * and its decisions, from the real profiles and recommendations. Answers the line the seed prints.
 */
export async function seedDemoClusters(
  deps: { sql: Sql; store: EventStore },
  classes: readonly { id: string; organizationId: string; schoolId: string }[],
): Promise<string> {
  const parts: string[] = [];
  for (const cls of classes) {
    const g = await recomputeClusters(
      { ...deps, inputs: decisionsInputs },
      { classId: cls.id, organizationId: cls.organizationId, schoolId: cls.schoolId },
    );
    const c = g.computation;
    parts.push(
      `${cls.id}: ${c.clusters.length} cluster(s) [${c.clusters.map((k) => k.memberStudentIds.length).join(', ')}], ` +
        `${c.individualReview.length} for individual review, ${c.moreDataNeeded.length} needing more data`,
    );
  }
  return `Clusters (POST /api/cluster/recompute/{classId}, rule set v1): ${parts.join('; ')}.`;
}
