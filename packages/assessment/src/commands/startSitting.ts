import { randomUUID } from 'node:crypto';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql, TransactionSql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { assessmentCommands } from '../commandContext';
import type { ScreeningWindow } from '../engine/calendar';
import { foldOnto, foldSitting } from '../engine/foldSitting';
import { SITTING_STARTED, streams } from '../events';
import type { CutVersionPins, DigitalSittingStarted, SittingFold, SittingMode } from '../events/sittingTypes';
import { cutVersionsInForce } from '../queries/cutTables';
import { type StudentClass, studentClassOf } from '../queries/studentClass';
import { windowCalendarState } from '../queries/windowState';
import { type PlanOutcome, planSitting } from './planSitting';
import { SittingRefused } from './refusal';

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

/**
 * What a start reads before its lock, each only when the one before it is there: the student's class, the
 * open window, the plan and the cut versions in force. Outside the transaction: planning reads the catalog
 * through the pool, which a transaction holding the start lock must not wait for.
 */
export interface StartFacts {
  readonly cls: StudentClass | null;
  readonly window: ScreeningWindow | null;
  readonly planned: PlanOutcome | null;
  readonly cutVersions: CutVersionPins | null;
}

export interface StartSitting {
  /** The id of the sitting this start opens, should it open one. */
  readonly attemptId: string;
  readonly studentId: number;
  readonly mode: SittingMode;
  /** A re-diagnostic's requested sub-skills (null: none named). */
  readonly subSkillIds: readonly string[] | null;
  readonly now: Date;
  readonly facts: StartFacts;
}

/** The student's digital attempts of the window as read under the start lock, and the sitting this start opened. */
export interface StartState {
  /** The open (in progress) sitting, which a start resumes. */
  readonly openAttemptId: string | null;
  /** A finished sitting of the window exists. */
  readonly done: boolean;
  /** The void the new sitting replaces. */
  readonly supersedesVoidId: number | null;
  /** The sitting this command started (its `SittingStarted` folded). */
  readonly started: SittingFold | null;
}

/**
 * A start's rules, in order: no active class (409 no_active_class), no open window (409 no_open_window); a
 * re-diagnostic of a skill cell names its sub-skills (422 sub_skills_required), each in the cell (422
 * sub_skill_not_in_cell); an open sitting is resumed (nothing to append); a window sitting that is done is not
 * sat again (409 sitting_already_done), a re-diagnostic needs one (409 no_finished_sitting); a cell that is not
 * screened (409 not_screened); no operational form (nothing to append, `no_screening_form`). Else
 * `SittingStarted` with the plan and the pins, in the student's name.
 */
export const startSittingDecider: Decider<StartSitting, NewEvent<DigitalSittingStarted>, StartState> = {
  initialState: () => ({ openAttemptId: null, done: false, supersedesVoidId: null, started: null }),
  evolve: (state, event) => ({
    ...state,
    started: state.started ? foldOnto(state.started, [event]) : foldSitting([event]),
  }),
  decide(command, state) {
    const { cls, window, planned, cutVersions } = command.facts;
    if (!cls) throw new SittingRefused('no_active_class');
    if (!window || !planned || !cutVersions) throw new SittingRefused('no_open_window');
    const { subSkillIds } = command;
    if (command.mode === 're_diagnostic' && planned.cell.kind === 'skills') {
      if (!subSkillIds) throw new SittingRefused('sub_skills_required');
      const cellSkills = planned.cell.subSkillIds;
      if (subSkillIds.some((id) => !cellSkills.includes(id))) throw new SittingRefused('sub_skill_not_in_cell');
    }
    if (state.openAttemptId) return [];
    if (command.mode === 'window' && state.done) throw new SittingRefused('sitting_already_done');
    if (command.mode === 're_diagnostic' && !state.done) throw new SittingRefused('no_finished_sitting');
    if (planned.kind === 'not_screened') throw new SittingRefused('not_screened');
    if (planned.kind === 'no_screening_form') return [];

    const { attemptId, studentId } = command;
    const started: DigitalSittingStarted = {
      attemptId,
      kind: 'digital_sitting',
      cell: 'digital',
      organizationId: cls.organizationId,
      schoolId: cls.schoolId,
      classId: cls.classId,
      studentId,
      grade: cls.grade,
      academicYear: cls.academicYear,
      window,
      startedAt: command.now.toISOString(),
      startedBy: studentId,
      supersedesVoidId: state.supersedesVoidId,
      mode: command.mode,
      measures: planned.plan.measures,
      plan: planned.plan.plan,
      sections: planned.plan.sections,
      pins: { ...planned.plan.pins, cutVersions },
      subSkillIds: planned.cell.kind === 'skills' ? [...(subSkillIds ?? planned.cell.subSkillIds)] : null,
    };
    return [
      {
        eventId: deterministicEventId('sitting-started', attemptId),
        type: SITTING_STARTED,
        data: started,
        metadata: { actorUserId: studentId, organizationId: cls.organizationId },
      },
    ];
  },
};

/** The class, open window, plan and cut versions a start decides on (`StartFacts`), read in turn. */
export async function readStartFacts(
  sql: Sql,
  studentId: number,
  now: Date,
  subSkillIds: readonly string[] | null,
): Promise<StartFacts> {
  const cls = await studentClassOf(sql, studentId);
  if (!cls) return { cls, window: null, planned: null, cutVersions: null };
  const window = (await windowCalendarState(sql, cls.organizationId, cls.academicYear, now)).openWindow;
  if (!window) return { cls, window, planned: null, cutVersions: null };
  const [planned, cutVersions] = await Promise.all([
    planSitting(sql, { ...cls, window, subSkillIds }),
    cutVersionsInForce(sql, cls.organizationId),
  ]);
  return { cls, window, planned, cutVersions };
}

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
 * The start's state under a transaction lock of (student, year, window), so parallel starts serialize and the
 * later ones find the first one's row (projected inline) and resume it. Without a class or an open window there
 * is nothing to lock: the decider refuses.
 */
async function loadStartState(tx: TransactionSql, studentId: number, facts: StartFacts): Promise<StartState> {
  const initial = startSittingDecider.initialState();
  const { cls, window } = facts;
  if (!cls || !window) return initial;
  const key = `${studentId}|${cls.academicYear}|${window}`;
  // Sent together: on the transaction's one connection the reads run after the lock is granted.
  const [, attempts, supersedesVoidId] = await Promise.all([
    tx`select pg_advisory_xact_lock(hashtext('asm_sitting_start'), hashtext(${key}))`,
    tx<{ attempt_id: string; status: string }[]>`
      select attempt_id, status from asm_attempts
      where student_id = ${studentId} and academic_year = ${cls.academicYear}
        and evidence_window = ${window} and cell = 'digital' and void_id is null
        and status in ('in_progress', 'done')
      order by started_at desc`,
    unsupersededVoid(tx, { studentId, year: cls.academicYear, window }),
  ]);
  return {
    ...initial,
    openAttemptId: attempts.find((a) => a.status === 'in_progress')?.attempt_id ?? null,
    done: attempts.some((a) => a.status === 'done'),
    supersedesVoidId,
  };
}

/**
 * Starts (or resumes) the student's digital sitting of the open window. At most one sitting of a student and
 * window is open (the start lock, `loadStartState`). A window sitting that is done is not sat again by `start`
 * (409 sitting_already_done); a re-diagnostic needs one (409 no_finished_sitting).
 */
export async function startSitting(deps: { sql: Sql; store: EventStore }, input: StartInput): Promise<StartOutcome> {
  const now = input.now ?? new Date();
  const subSkillIds = input.mode === 're_diagnostic' && input.subSkillIds?.length ? input.subSkillIds : null;
  const facts = await readStartFacts(deps.sql, input.studentId, now, subSkillIds);
  const attemptId = randomUUID();
  const { kind, state } = await handleCommand(deps, {
    context: assessmentCommands,
    streamId: streams.sitting(attemptId),
    decider: startSittingDecider,
    command: { attemptId, studentId: input.studentId, mode: input.mode, subSkillIds, now, facts },
    load: {
      name: 'the window’s digital attempts of the student, under the start lock',
      inTransaction: true,
      load: async (uow) => ({ state: await loadStartState(uow.sql, input.studentId, facts), version: 'no_stream' }),
    },
  });
  if (kind === 'appended' && state.started) return { kind: 'started', fold: state.started };
  if (!state.openAttemptId) return { kind: 'no_screening_form' };
  // Read after the transaction: waiting for a pool connection while holding the lock could starve the pool.
  const fold = foldSitting(await deps.store.readStream(streams.sitting(state.openAttemptId)));
  if (!fold) throw new Error(`sitting ${state.openAttemptId}: no SittingStarted`);
  return { kind: 'resumed', fold };
}
