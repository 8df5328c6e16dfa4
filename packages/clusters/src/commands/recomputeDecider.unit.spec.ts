import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { deterministicEventId } from '@qiraa/eventstore';
import { describe, it } from 'vitest';
import type { ClusterComputation } from '../engine/computeClusters';
import { CLUSTER_GENERATION_COMPUTED } from '../events';
import { CURRENT_CLUSTER_RULE_SET } from '../rules/ruleSet';
import { type RecomputeState, recomputeDecider } from './recomputeClusters';

const spec = DeciderSpecification.for(recomputeDecider);
const rules = CURRENT_CLUSTER_RULE_SET;
const cls = { classId: 'cls_1', organizationId: 'org_1', schoolId: 'sch_1' };
const now = new Date('2026-10-05T09:00:00Z');
const DAY_MS = 86_400_000;
const computation: ClusterComputation = {
  ruleSetVersion: rules.version,
  minClusterSize: 2,
  clusters: [],
  individualReview: [],
  moreDataNeeded: [{ studentId: 7, reason: 'no_profile' as never, ruleId: 'CLU-02' }],
  droppedStudentIds: [],
  recommendationIds: [],
};
const latest = (digest: string, expiresAt: Date) => ({
  generationId: 'g-1',
  digest,
  createdAt: new Date(now.getTime() - DAY_MS),
  expiresAt,
  streamVersion: 3n,
});
const given = (l: RecomputeState['latest']): RecomputeState => ({ computation, digest: 'd-new', latest: l });
const generation = (version: bigint) => ({
  eventId: deterministicEventId('cluster-generation', cls.classId, version, 'd-new'),
  type: CLUSTER_GENERATION_COMPUTED,
  data: {
    ...computation,
    classId: cls.classId,
    organizationId: cls.organizationId,
    digest: 'd-new',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + rules.generationTtlDays * DAY_MS).toISOString(),
  },
  metadata: { organizationId: 'org_1' },
});

describe('recomputeDecider', () => {
  it('writes the first generation of a class, in its organization', async () => {
    await spec
      .givenState(given(null))
      .when({ cls, rules, now })
      .thenEvents([generation(0n)]);
  });

  it('writes nothing while the newest generation has the same answer and has not expired', async () => {
    const fresh = latest('d-new', new Date(now.getTime() + DAY_MS));
    await spec.givenState(given(fresh)).when({ cls, rules, now }).thenNothing();
  });

  it('writes a new generation after the newest one when the answer changed or the newest expired', async () => {
    const changed = latest('d-old', new Date(now.getTime() + DAY_MS));
    await spec
      .givenState(given(changed))
      .when({ cls, rules, now })
      .thenEvents([generation(3n)]);
    const expired = latest('d-new', now);
    await spec
      .givenState(given(expired))
      .when({ cls, rules, now })
      .thenEvents([generation(3n)]);
  });
});
