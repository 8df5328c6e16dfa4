import {
  ATTEMPT_VOIDED,
  assessmentEvents,
  type EVIDENCE_EVENT_TYPES,
  ORAL_READING_STOPPED,
  SITTING_COMPLETED,
  SITTING_STOPPED,
  studentsOfAttempts,
  WORD_LIST_READ,
} from '@qiraa/assessment';
import type { AnySql } from '@qiraa/db';
import { eventsOfType, type RecordedEvent } from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';

/**
 * The evidence events after which a student's evidence may differ: an attempt ended (a sitting completed or
 * stopped, an oral reading stopped, a word-list read recorded whole) or was voided. An opening, an answer or a
 * mark never changes a decision (an attempt is evidence once it has ended), so they touch no student.
 */
export const EVIDENCE_SETTLING_TYPES: readonly (typeof EVIDENCE_EVENT_TYPES)[number][] = [
  SITTING_COMPLETED,
  SITTING_STOPPED,
  ORAL_READING_STOPPED,
  WORD_LIST_READ,
  ATTEMPT_VOIDED,
];

/** The students whose evidence the events may have changed, in ascending order. */
export async function touchedStudents(sql: AnySql, events: readonly RecordedEvent[]): Promise<number[]> {
  const settling = eventsOfType(assessmentEvents(events), ...EVIDENCE_SETTLING_TYPES);
  if (settling.length === 0) return [];
  return studentsOfAttempts(sql, [...new Set(settling.map((e) => String(e.data.attemptId)))]);
}

/**
 * The decisions reactor: a checkpointed consumer of the assessment's evidence events (those that settle it), run by the projection
 * runner like any projection. Each batch collects the students it touches and recomputes each inside the
 * batch's transaction, so the decisions it appends commit with the checkpoint. Decision ids are deterministic:
 * a batch delivered again (or a student already recomputed inline by the request that wrote the evidence)
 * appends nothing. It owns no table; a rebuild replays every evidence event, which appends nothing new either.
 */
export const skillStatusReactor = defineProjection({
  name: 'decisions_skill_status_reactor',
  // 2: the recompute also seeds training levels; the rebuild replays the evidence log, seeding every student.
  version: 2,
  // The settling subset of EVIDENCE_EVENT_TYPES: an answer or a mark would only wake it to find nothing to do
  // (a screening morning appends thousands of answers).
  handles: EVIDENCE_SETTLING_TYPES,
  tables: [],
  async applyBatch({ sql, runner }, events) {
    if (!runner) throw new Error('the decisions reactor runs only in the projection runner (it appends events)');
    // The wake-up of decision consumers waits for the runner's sweep: the batch's commit is the runner's.
    const uow = { sql, afterCommit: () => {} };
    for (const studentId of await touchedStudents(sql, events)) {
      await recomputeSkillStatus(runner, studentId, { uow });
    }
  },
});
