import { randomUUID } from 'node:crypto';
import { inTransaction, type Sql, type TransactionSql } from '@qiraa/db';
import { type EventStore, randomEventId } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
import { SITTING_STARTED, streams } from '../events';
import { windowCalendarState } from '../windows/windowState';
import { cutVersionsInForce } from './cutTables';
import { foldSitting } from './foldSitting';
import { planSitting } from './planSitting';
import { SittingRefused } from './refusal';
import type { DigitalSittingStarted, SittingFold, SittingMode } from './sittingTypes';
import { studentClassOf } from './studentClass';

export interface StartInput {
  studentId: number;
  mode: SittingMode;
  /** Re-diagnostic of a skill cell only. */
  subSkillIds?: readonly string[] | undefined;
  now?: Date;
}

export type StartOutcome =
  | { kind: 'started' | 'resumed'; fold: SittingFold }
  /** Nothing to serve: the cell's digital measures have no operational form. Nothing is written. */
  | { kind: 'no_screening_form' };

/** The latest void of this student, window and the digital cell that no attempt supersedes yet. */
async function unsupersededVoid(tx: TransactionSql, s: { studentId: number; year: string; window: string }) {
  const [row] = await tx<{ void_id: string }[]>`
    select a.void_id::text from asm_attempts a
    where a.student_id = ${s.studentId} and a.academic_year = ${s.year} and a.evidence_window = ${s.window}
      and a.cell = 'digital' and a.void_id is not null
      and not exists (select 1 from asm_attempts b where b.supersedes_void_id = a.void_id)
    order by a.voided_at desc limit 1`;
  return row ? Number(row.void_id) : null;
}

/**
 * Starts (or resumes) the student's digital sitting of the open window. At most one sitting of a student and
 * window is open: parallel starts serialize on a transaction lock of (student, year, window) and the later
 * ones find the first one's row (projected inline) and resume it. A window sitting that is done is not sat
 * again by `start` (409 sitting_already_done); a re-diagnostic needs one (409 no_finished_sitting).
 */
export async function startSitting(deps: { sql: Sql; store: EventStore }, input: StartInput): Promise<StartOutcome> {
  const now = input.now ?? new Date();
  const cls = await studentClassOf(deps.sql, input.studentId);
  if (!cls) throw new SittingRefused('no_active_class');
  const calendar = await windowCalendarState(deps.sql, cls.organizationId, cls.academicYear, now);
  const window = calendar.openWindow;
  if (!window) throw new SittingRefused('no_open_window');

  // Planned outside the transaction: it reads through the pool (catalog cache), which a transaction holding
  // the start lock must not wait for.
  const subSkillIds = input.mode === 're_diagnostic' && input.subSkillIds?.length ? input.subSkillIds : null;
  const [planned, cutVersions] = await Promise.all([
    planSitting(deps.sql, { ...cls, window, subSkillIds }),
    cutVersionsInForce(deps.sql, cls.organizationId),
  ]);
  if (input.mode === 're_diagnostic' && planned.cell.kind === 'skills') {
    if (!subSkillIds) throw new SittingRefused('sub_skills_required');
    if (subSkillIds.some((id) => !planned.cell.subSkillIds.includes(id)))
      throw new SittingRefused('sub_skill_not_in_cell');
  }

  const outcome = await inTransaction(deps.sql, async (uow) => {
    const tx = uow.sql;
    const key = `${input.studentId}|${cls.academicYear}|${window}`;
    // Sent together: on the transaction's one connection the reads run after the lock is granted.
    const [, attempts, supersedesVoidId] = await Promise.all([
      tx`select pg_advisory_xact_lock(hashtext('asm_sitting_start'), hashtext(${key}))`,
      tx<{ attempt_id: string; status: string }[]>`
        select attempt_id, status from asm_attempts
        where student_id = ${input.studentId} and academic_year = ${cls.academicYear}
          and evidence_window = ${window} and cell = 'digital' and void_id is null
          and status in ('in_progress', 'done')
        order by started_at desc`,
      unsupersededVoid(tx, { studentId: input.studentId, year: cls.academicYear, window }),
    ]);
    const open = attempts.find((a) => a.status === 'in_progress');
    // Read after the transaction: waiting for a pool connection while holding the lock could starve the pool.
    if (open) return { kind: 'resumed', attemptId: open.attempt_id } as const;
    const done = attempts.some((a) => a.status === 'done');
    if (input.mode === 'window' && done) throw new SittingRefused('sitting_already_done');
    if (input.mode === 're_diagnostic' && !done) throw new SittingRefused('no_finished_sitting');
    if (planned.kind === 'not_screened') throw new SittingRefused('not_screened');
    if (planned.kind === 'no_screening_form') return { kind: 'no_screening_form' } as const;

    const attemptId = randomUUID();
    const started: DigitalSittingStarted = {
      attemptId,
      kind: 'digital_sitting',
      cell: 'digital',
      organizationId: cls.organizationId,
      schoolId: cls.schoolId,
      classId: cls.classId,
      studentId: input.studentId,
      grade: cls.grade,
      academicYear: cls.academicYear,
      window,
      startedAt: now.toISOString(),
      startedBy: input.studentId,
      supersedesVoidId,
      mode: input.mode,
      measures: planned.plan.measures,
      plan: planned.plan.plan,
      sections: planned.plan.sections,
      pins: { ...planned.plan.pins, cutVersions },
      subSkillIds: planned.cell.kind === 'skills' ? [...(subSkillIds ?? planned.cell.subSkillIds)] : null,
    };
    const result = await recordEvidence(
      uow,
      deps.store,
      streams.sitting(attemptId),
      [
        {
          eventId: randomEventId(),
          type: SITTING_STARTED,
          data: started,
          metadata: { actorUserId: input.studentId, organizationId: cls.organizationId },
        },
      ],
      'no_stream',
    );
    if (result.kind !== 'appended') throw new Error(`sitting ${attemptId}: start not appended (${result.kind})`);
    const fold = foldSitting(result.events);
    if (!fold) throw new Error(`sitting ${attemptId}: no SittingStarted`);
    return { kind: 'started', fold } as const;
  });
  if (outcome.kind !== 'resumed') return outcome;
  const fold = foldSitting(await deps.store.readStream(streams.sitting(outcome.attemptId)));
  if (!fold) throw new Error(`sitting ${outcome.attemptId}: no SittingStarted`);
  return { kind: 'resumed', fold };
}
