import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql, UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import type { PracticeAnswerRecorded } from '../engine/dayEvents';
import { type CountedAnswer, decideLevelMove } from '../engine/levelMove';
import { streams, TRAINING_LEVEL_MOVED, type TrainingLevelMoved, type TrainingLevelNumber } from '../events';
import type { TrainingRules } from '../rules/trainingRules';

export interface MoveLevel {
  readonly answer: PracticeAnswerRecorded;
  readonly rules: TrainingRules;
  readonly academicYear: string;
  readonly organizationId: string | null;
}

/** The answer's skill's level this year, and the counted answers given at the answer's level, in order. */
export interface LevelMoveState {
  readonly level: { readonly level: number; readonly levelId: string; readonly measureCode: string | null } | null;
  readonly answers: readonly CountedAnswer[];
}

/**
 * TLM-01/TLM-02 after a counted answer: a move is `TrainingLevelMoved`, its id derived from the level and the
 * last answer it read, so it happens once. Nothing when the level moved since the answer's day was planned (the
 * answer belongs to a level that is no longer current). The state is read, not folded.
 */
export const levelMoveDecider: Decider<MoveLevel, NewEvent<TrainingLevelMoved>, LevelMoveState> = {
  initialState: () => ({ level: null, answers: [] }),
  evolve: (state) => state,
  decide({ answer, rules, academicYear, organizationId }, { level, answers }) {
    if (!level || level.levelId !== answer.levelId) return [];
    const decision = decideLevelMove(rules, level.level, answers);
    if (!decision.direction) return [];
    const moveId = deterministicEventId('training-level-move', answer.studentId, answer.levelId, answer.answerId);
    const data: TrainingLevelMoved = {
      moveId,
      studentId: answer.studentId,
      organizationId,
      skillId: answer.skillId,
      measureCode: level.measureCode,
      fromLevel: level.level as TrainingLevelNumber,
      toLevel: (level.level + (decision.direction === 'up' ? 1 : -1)) as TrainingLevelNumber,
      direction: decision.direction,
      ruleId: decision.ruleId,
      ruleVersion: rules.version,
      evidenceAnswerIds: decision.evidenceAnswerIds,
      since: answer.schoolDay,
      at: answer.answeredAt,
      academicYear,
    };
    return [{ eventId: moveId, type: TRAINING_LEVEL_MOVED, data, metadata: { organizationId } }];
  },
};

/**
 * After a counted answer (already projected in `uow`): the level rule on `traininglevel-<studentId>`, joining
 * the answer's unit of work. A move up's `scaffold_tier_step_up` mastery event is gamification's, recorded by
 * the `training_level_rewards_reaction` (reactions/levelRewardsReaction.ts), not in this unit of work.
 */
export async function moveLevelAfter(
  deps: { sql: Sql; store: EventStore },
  uow: UnitOfWork,
  rules: TrainingRules,
  answer: PracticeAnswerRecorded,
  academicYear: string,
  organizationId: string | null,
): Promise<TrainingLevelMoved | null> {
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: streams.level(answer.studentId),
    decider: levelMoveDecider,
    command: { answer, rules, academicYear, organizationId },
    uow,
    load: {
      name: 'the level row and the counted answers at its level, in the answer’s unit of work',
      inTransaction: true,
      async load(uow) {
        const sql = uow.sql;
        // The stream's version in the level row's statement: one snapshot, and no statement more per answer.
        const [[row], answers] = await Promise.all([
          sql<{ v: string | null; level: number | null; level_id: string | null; measure_code: string | null }[]>`
            select v.v, l.level, l.level_id, l.measure_code
            from (select max(stream_version)::text as v from trn_levels where student_id = ${answer.studentId}) as v
            left join trn_levels l on l.student_id = ${answer.studentId} and l.academic_year = ${academicYear}
              and l.skill_id = ${answer.skillId}`,
          sql<{ answer_id: string; correct: boolean; school_day: string }[]>`
            select answer_id, correct, school_day::text from trn_answers
            where student_id = ${answer.studentId} and level_id = ${answer.levelId} and counted
            order by answered_at, seq`,
        ]);
        const version = row?.v ? BigInt(row.v) : ('no_stream' as const);
        const state: LevelMoveState = {
          level:
            row?.level_id && row.level !== null
              ? { level: row.level, levelId: row.level_id, measureCode: row.measure_code }
              : null,
          answers: answers.map((a) => ({ answerId: a.answer_id, correct: a.correct, schoolDay: a.school_day })),
        };
        return { state, version };
      },
    },
  });
  return result.events[0]?.data ?? null;
}
