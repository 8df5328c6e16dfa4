import {
  type AttemptKind,
  answerSitting,
  closeWindow,
  markOralReading,
  openWindow,
  type PageCell,
  type PageClass,
  recordWordListRead,
  type SittingFold,
  servedPosition,
  setWindowCalendar,
  startOralReading,
  startSitting,
  stopOralReading,
  teacherWordLists,
  type VoidReason,
  voidAttempt,
  windowCalendarState,
} from '@qiraa/assessment';
import { resolveBlueprintCell, setBlueprintCell } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { type Caller, permissionsFor } from '@qiraa/identity';
import { CliError } from '../cliError';
import { demoCalendar } from './demoWindowCalendar';

type Deps = { sql: Sql; store: EventStore };

export interface DemoClass {
  id: string;
  grade: number;
  teacherId: number;
  /** In the order of the seed's class list: the scenarios below go by position. */
  studentIds: readonly number[];
}

export interface DemoAssessmentInput {
  organizationId: string;
  schoolId: string;
  academicYear: string;
  /** The organization administrator: sets the calendar and the blueprint cell, closes and opens the window. */
  adminId: number;
  classes: readonly DemoClass[];
}

/**
 * What one child did in BOY. `skill` (0 to 1) drives a deterministic answer and reading pattern, so the
 * children's results differ. `stopped`: the child was mid-sitting when the administrator closed the window
 * early (the one way a sitting stops short of a void today); `voided`: a sitting the teacher voided midway
 * (a technical interruption: the void also ends it) and not sat again yet; `redone`: a reading voided and
 * read again; `reread`: the skill of a second reading of the passage later in the window (the child read
 * more fluently: a higher band, so a `band_progression` mastery event earned from real evidence).
 */
interface Scenario {
  skill: number;
  digital: 'done' | 'in_progress' | 'stopped' | 'voided' | 'none';
  text?: 'done' | 'in_progress' | 'redone';
  reread?: number;
  familiar?: 'done' | 'voided';
  pseudo?: 'done' | 'voided';
  /** Answer and read exactly as the child at this index of the class does (the same evidence, so one cluster). */
  answersAs?: number;
}

/** Per class of the seed (grade 1, then grade 2), per child in the seed's order. */
const SCENARIOS: readonly (readonly Scenario[])[] = [
  [
    { skill: 0.9, digital: 'done', text: 'done', familiar: 'done' },
    { skill: 0.6, digital: 'done', text: 'done', familiar: 'done' },
    { skill: 0.4, digital: 'done', text: 'in_progress' },
    { skill: 0.5, digital: 'stopped' },
    { skill: 0.7, digital: 'in_progress' },
    { skill: 0.6, digital: 'done', text: 'done', familiar: 'done', answersAs: 1 },
  ],
  [
    { skill: 0.8, digital: 'done', text: 'done', familiar: 'done', pseudo: 'done' },
    { skill: 0.7, digital: 'done', text: 'redone', familiar: 'done', pseudo: 'done' },
    { skill: 0.5, digital: 'done', text: 'done', reread: 0.9, familiar: 'voided', pseudo: 'done' },
    { skill: 0.6, digital: 'voided' },
    { skill: 0.3, digital: 'done' },
  ],
];

/** Answers given before the window closes on the stopped sitting, and before the seed leaves the open one open. */
const STOPPED_AFTER = 3;
const OPEN_AFTER = 2;
/** Answers given before the tablet gave out and the teacher voided the sitting. */
const VOIDED_AFTER = 4;

/** Grade 1 of the demo network screens pseudoword decoding from MOY, once letters have been taught. */
const LATER_IN_GRADE_1 = 'pseudowords_list';

export const teacherCaller = (userId: number, organizationId: string): Caller => ({
  userId,
  persona: 'TEACHER',
  organizationId,
  schoolId: null,
  permissions: permissionsFor('TEACHER', organizationId),
});

/** Whether the child answers question `position` right: about `skill` of the questions, a different set per child. */
const answersRight = (skill: number, child: number, position: number) =>
  (position * 3 + child * 7) % 10 < Math.round(skill * 10);

/** A timed read of `words` words by a child of `skill`: how far, how long, which words wrong. */
function readOf(words: number, skill: number, child: number) {
  const reached = Math.min(words, Math.max(5, Math.round(words * (0.4 + skill * 0.7))));
  const errors = Math.min(reached - 1, Math.round((1 - skill) * 7));
  const errorIndices = [...new Set(Array.from({ length: errors }, (_, j) => (child * 5 + j * 7 + 2) % reached))];
  return {
    lastWordIndex: reached - 1,
    elapsedSeconds: reached === words ? Math.max(20, Math.round(60 * (1.15 - skill))) : 60,
    errorIndices: errorIndices.sort((a, b) => a - b),
  };
}

export interface DemoAssessmentSummary {
  window: { startsOn: string; endsOn: string; openedByHand: boolean };
  sittings: Record<'done' | 'in_progress' | 'stopped' | 'voided', number>;
  oralReadings: number;
  wordListReads: number;
  voids: number;
}

/**
 * The demo classes' BOY screening, written through the assessment context's own commands (the functions
 * the routes call), so the teacher page `GET /api/teacher/classes/{id}/taqyeem` shows every cell status:
 * the organization's calendar with BOY open today, grade 1's pseudoword cell left to MOY by an organization
 * blueprint cell (`unavailable`), digital sittings answered question by question, oral readings marked and
 * stopped and word-list reads by the class teacher, voids with and without a replacement, one sitting left
 * open and one stopped by an early close of the window, reopened at once.
 */
export async function seedDemoAssessment(
  deps: Deps,
  input: DemoAssessmentInput,
): Promise<DemoAssessmentSummary | null> {
  const { sql } = deps;
  const { organizationId, academicYear, adminId } = input;
  const year = { organizationId, academicYear, actorUserId: adminId };

  const { today } = await windowCalendarState(sql, organizationId, academicYear);
  const plan = demoCalendar(academicYear, today);
  if (plan.kind === 'year_over') return null;
  const set = await setWindowCalendar(deps, { ...year, windows: plan.windows });
  if (set.kind === 'refused') throw new CliError(`the demo calendar was refused: ${JSON.stringify(set.problems)}`);
  if (plan.openBoyByHand) await mustOpen(deps, year);
  await leaveToMoy(sql, input);

  const summary: DemoAssessmentSummary = {
    window: { startsOn: plan.windows[0]!.startsOn, endsOn: plan.windows[0]!.endsOn, openedByHand: plan.openBoyByHand },
    sittings: { done: 0, in_progress: 0, stopped: 0, voided: 0 },
    oralReadings: 0,
    wordListReads: 0,
    voids: 0,
  };
  const children = input.classes.flatMap((cls, c) =>
    cls.studentIds.map((studentId, i) => ({
      cls,
      studentId,
      child: c * 10 + (SCENARIOS[c]?.[i]?.answersAs ?? i),
      scenario: SCENARIOS[c]?.[i],
    })),
  );

  // First the sitting the early close stops: the close stops every open sitting of the window.
  for (const { studentId, child, scenario } of children) {
    if (scenario?.digital !== 'stopped') continue;
    await sit(deps, studentId, child, scenario.skill, STOPPED_AFTER);
    summary.sittings.stopped++;
  }
  if (summary.sittings.stopped > 0) {
    const closed = await closeWindow(deps, { ...year, window: 'BOY' });
    if (closed.kind !== 'closed' || closed.stoppedSittings !== summary.sittings.stopped)
      throw new Error(`closing BOY stopped ${JSON.stringify(closed)}`);
    await mustOpen(deps, year);
  }

  for (const { cls, studentId, child, scenario } of children) {
    if (!scenario) continue;
    const teacher = teacherCaller(cls.teacherId, organizationId);
    const voidOf = async (kind: AttemptKind, targetId: string, reason: VoidReason) => {
      const pageClass: PageClass = {
        id: cls.id,
        schoolId: input.schoolId,
        organizationId,
        grade: cls.grade,
        academicYear,
      };
      const result = await voidAttempt(deps, { cls: pageClass, kind, targetId, reason, actorUserId: cls.teacherId });
      if (result.kind !== 'voided') throw new Error(`void of ${targetId}: ${result.kind}`);
      summary.voids++;
    };

    if (scenario.digital === 'done') {
      const fold = await sit(deps, studentId, child, scenario.skill);
      if (fold.status !== 'done') throw new Error(`sitting ${fold.attemptId} is ${fold.status}`);
      summary.sittings.done++;
    } else if (scenario.digital === 'voided') {
      const fold = await sit(deps, studentId, child, scenario.skill, VOIDED_AFTER);
      await voidOf('digital_sitting', fold.attemptId, 'technical_interruption');
      summary.sittings.voided++;
    } else if (scenario.digital === 'in_progress') {
      await sit(deps, studentId, child, scenario.skill, OPEN_AFTER);
      summary.sittings.in_progress++;
    }

    if (scenario.text) {
      const first = await readPassage(
        deps,
        teacher,
        { studentId, grade: cls.grade },
        child,
        scenario.skill,
        scenario.text !== 'in_progress',
      );
      summary.oralReadings++;
      if (scenario.text === 'redone') {
        await voidOf('oral_text', first, 'student_not_ready');
        await readPassage(deps, teacher, { studentId, grade: cls.grade }, child + 1, scenario.skill, true);
        summary.oralReadings++;
      }
      if (scenario.reread !== undefined) {
        await readPassage(deps, teacher, { studentId, grade: cls.grade }, child, scenario.reread, true);
        summary.oralReadings++;
      }
    }
    for (const [cell, outcome] of [
      ['oral_familiar_words', scenario.familiar],
      ['oral_pseudowords', scenario.pseudo],
    ] as const) {
      if (!outcome) continue;
      const read = await readWordList(deps, teacher, studentId, cell, child, scenario.skill);
      summary.wordListReads++;
      if (outcome === 'voided') await voidOf('oral_word_list', read, 'technical_interruption');
    }
  }
  // Decided afterwards with the monitoring probes (seedDemoDecisions.ts), as the reactor would.
  return summary;
}

async function mustOpen(deps: Deps, year: { organizationId: string; academicYear: string; actorUserId: number }) {
  const opened = await openWindow(deps, { ...year, window: 'BOY' });
  if (opened.kind !== 'opened') throw new Error(`BOY could not be opened: ${opened.reason}`);
}

/** The organization's own grade-1 BOY cell: the global one without the measure screened later. */
async function leaveToMoy(sql: Sql, input: DemoAssessmentInput) {
  const address = { organizationId: input.organizationId, schoolId: null, grade: 1, window: 'BOY' as const };
  const global = await resolveBlueprintCell(sql, { ...address, organizationId: null });
  const measures = global.measures.filter((m) => m !== LATER_IN_GRADE_1);
  const result = await setBlueprintCell(sql, { ...address, updatedBy: input.adminId, body: { content: { measures } } });
  if (!result.ok) throw new Error(`the demo grade-1 blueprint cell was refused: ${result.reason}`);
}

/** The child starts the window sitting and answers `answers` questions (all by default). */
async function sit(
  deps: Deps,
  studentId: number,
  child: number,
  skill: number,
  answers?: number,
): Promise<SittingFold> {
  const started = await startSitting(deps, { studentId, mode: 'window' });
  if (started.kind === 'no_screening_form') throw new Error(`no screening form for student ${studentId}`);
  let fold = started.fold;
  const count = Math.min(answers ?? fold.started.plan.length, fold.started.plan.length);
  for (let i = 0; i < count; i++) {
    const position = servedPosition(fold);
    const question = fold.started.plan[position]!;
    const [item] = await deps.sql<{ correct_option_key: string; options: { key: string }[] }[]>`
      select correct_option_key, options from content_items where id = ${question.itemId}`;
    const wrong = item!.options.find((o) => o.key !== item!.correct_option_key)!.key;
    const answer = answersRight(skill, child, position) ? item!.correct_option_key : wrong;
    fold = await answerSitting(deps, fold.attemptId, { itemId: question.itemId, answer });
  }
  return fold;
}

/** An oral reading of the grade's first operational passage: marks as the child reads, then the stop. */
async function readPassage(
  deps: Deps,
  teacher: Caller,
  at: { studentId: number; grade: number },
  child: number,
  skill: number,
  stop: boolean,
) {
  const { studentId, grade } = at;
  const passage = await gradePassage(deps.sql, grade);
  const reading = await startOralReading(deps, teacher, { studentId, passageId: passage.id });
  const { attemptId, wordCount } = reading.started;
  const read = readOf(wordCount, skill, child);
  // The first error is corrected by the child a moment later: the latest mark counts.
  for (const [j, wordIndex] of read.errorIndices.entries()) {
    await markOralReading(deps, teacher, attemptId, { wordIndex, mark: 'error' });
    if (j === 0) await markOralReading(deps, teacher, attemptId, { wordIndex, mark: 'self_correction' });
  }
  if (stop) await stopOralReading(deps, teacher, attemptId, read);
  return attemptId;
}

/** The grade's first operational global passage: the one the demo's teachers read with every child. */
export async function gradePassage(sql: Sql, grade: number): Promise<{ id: string }> {
  const [passage] = await sql<{ id: string }[]>`
    select id from content_passages
    where status = 'operational' and organization_id is null and grade = ${grade}
    order by external_id, version desc limit 1`;
  if (!passage) throw new Error(`no operational passage for grade ${grade}`);
  return passage;
}

/** A word-list read of the cell's list for the child's grade and window, as the teacher's list view offers it. */
async function readWordList(
  deps: Deps,
  teacher: Caller,
  studentId: number,
  cell: Extract<PageCell, 'oral_familiar_words' | 'oral_pseudowords'>,
  child: number,
  skill: number,
) {
  // The wall clock, as recordWordListRead below (the seed passes neither a clock).
  const { lists } = await teacherWordLists(deps.sql, teacher, studentId, new Date());
  const list = lists.find((l) => l.cell === cell);
  if (!list) throw new Error(`no ${cell} word list for student ${studentId}`);
  const read = readOf(list.wordCount, skill, child);
  const recorded = await recordWordListRead(deps, teacher, {
    studentId,
    wordListId: list.id,
    errorIndices: read.errorIndices,
    last_word_index: read.lastWordIndex,
    elapsed_seconds: read.elapsedSeconds,
  });
  return recorded.id;
}

/** The seed's one line about it. */
export function demoAssessmentLine(summary: DemoAssessmentSummary | null, academicYear: string): string {
  if (!summary) return `Assessment: none seeded: ${academicYear} is over, no BOY window of it can be open today.`;
  const { window: w, sittings: s } = summary;
  return (
    `Assessment: BOY ${academicYear} open (${w.startsOn} to ${w.endsOn}${w.openedByHand ? ', opened by hand' : ''}); ` +
    `digital sittings ${s.done} done, ${s.in_progress} in progress, ${s.stopped} stopped by an early close ` +
    `(reopened), ${s.voided} voided; ${summary.oralReadings} oral readings, ${summary.wordListReads} word-list ` +
    `reads, ${summary.voids} voids; grade 1 screens pseudowords from MOY ` +
    '(GET /api/teacher/classes/{classId}/taqyeem as a teacher).'
  );
}
