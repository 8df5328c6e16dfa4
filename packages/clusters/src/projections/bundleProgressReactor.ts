import { SKILL_STATUS_DECIDED, type SkillStatusDecided } from '@qiraa/decisions';
import { defineProjection, eventsOfType } from '@qiraa/projections';
import { creditBundleProgress } from '../commands/creditBundleProgress';

/**
 * Bundle progress (BPR-01, BPR-02): a skill-status decision of a child with an activated bundle may meet a
 * step. Each batch credits the children it touches inside the runner's batch, so the credit commits with the
 * batch's checkpoint; the engine event ids make a replayed batch credit nothing twice. Decisions taken before
 * an activation never meet a step, so a BundleAssigned needs no wake-up of its own.
 */
export const bundleProgressReactor = defineProjection({
  name: 'clusters_bundle_progress_reactor',
  version: 1,
  handles: [SKILL_STATUS_DECIDED],
  tables: [],
  async applyBatch({ sql, runner }, events) {
    if (!runner) throw new Error('the bundle progress reactor runs only in the projection runner (it appends events)');
    const decided = eventsOfType<SkillStatusDecided>(events, SKILL_STATUS_DECIDED).map((e) => e.data.studentId);
    const students = [...new Set(decided)].sort((a, b) => a - b);
    if (students.length === 0) return;
    const assigned = await sql<{ student_id: string }[]>`
      select distinct student_id::text from clu_assignments where student_id = any(${students as number[]})`;
    const uow = { sql, afterCommit: () => {} };
    for (const { student_id } of assigned) await creditBundleProgress(runner, Number(student_id), { uow });
  },
});
