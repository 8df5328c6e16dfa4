import { type Decider, handleCommand } from '@qiraa/command-kit';
import type { Sql, UnitOfWork } from '@qiraa/db';
import { type TrainingLevelSeed, trainingLevelSeedsOf } from '@qiraa/decisions';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import {
  streams,
  TRAINING_LEVEL_MOVED,
  TRAINING_LEVEL_STARTED,
  type TrainingLevelMoved,
  type TrainingLevelNumber,
  type TrainingLevelStarted,
  trainingEvents,
} from '../events';
import type { Learner } from '../queries/learner';
import { type TrainableSkill, trainableSkillsOf } from '../queries/trainingPool';
import type { TrainingRules } from '../rules/trainingRules';
import { levelStreamVersion } from './levelStream';

export interface LevelNow {
  skillId: string;
  ordinal: number;
  measureCode: string | null;
  level: TrainingLevelNumber;
  levelId: string;
  lastPractisedOn: string | null;
}

/** A level of this year as the loader reads it from `trn_levels`. */
export interface LevelRowDb {
  skill_id: string;
  level: number;
  level_id: string;
  seed_id: string | null;
  started_at: Date;
  last_move_at: Date | null;
  last_practised: string | null;
}

export interface EnsureLevels {
  readonly learner: Learner;
  readonly rules: TrainingRules;
  readonly now: Date;
  readonly schoolDay: string;
}

/** What the start and rebaseline rules read: the skills, this year's seeds, the levels this year and before. */
export interface LevelsState {
  readonly skills: readonly TrainableSkill[];
  readonly seeds: readonly TrainingLevelSeed[];
  readonly rows: readonly LevelRowDb[];
  readonly previous: readonly { skill_id: string; level: number }[];
}

/**
 * Starts the level of every skill the child's grade can train that has none this academic year, and sets a
 * level back to a newer screen seed (rebaseline). Start order (rule set `start`):
 * - TLS-START-01 `screen`: the standing training-level seed of the skill this year (decisions, rule TLS-01);
 * - TLS-START-02 `backtrack`: else last academic year's level of the skill, `levelsBack` (1) lower, at least 1;
 * - TLS-START-03 `experience_type`: else the experience type's level (v1: a child new to leveled training
 *   starts at level 1).
 * TLM-03 `rebaseline`: a seed decided after the level's last start or move, at another level, moves it there.
 * The state is read (`ensureLevels`' loader), not folded.
 */
export const ensureLevelsDecider: Decider<
  EnsureLevels,
  NewEvent<TrainingLevelStarted | TrainingLevelMoved>,
  LevelsState
> = {
  initialState: () => ({ skills: [], seeds: [], rows: [], previous: [] }),
  evolve: (state) => state,
  decide({ learner, rules, now, schoolDay }, { skills, seeds, rows, previous }) {
    const { studentId, academicYear } = learner;
    const seedOf = new Map(seeds.map((s) => [s.skillId, s]));
    const rowOf = new Map(rows.map((r) => [r.skill_id, r]));
    const previousOf = new Map(previous.map((r) => [r.skill_id, r.level]));
    const at = now.toISOString();
    const events: NewEvent<TrainingLevelStarted | TrainingLevelMoved>[] = [];
    for (const skill of skills) {
      const seed = seedOf.get(skill.skillId);
      const row = rowOf.get(skill.skillId);
      if (!row) {
        const back = previousOf.get(skill.skillId);
        const [startedFrom, level, ruleId] = seed
          ? (['screen', seed.level, rules.start.screen.ruleId] as const)
          : back !== undefined
            ? ([
                'backtrack',
                Math.max(1, back - rules.start.backtrack.levelsBack),
                rules.start.backtrack.ruleId,
              ] as const)
            : (['experience_type', rules.start.experienceType.level, rules.start.experienceType.ruleId] as const);
        const data: TrainingLevelStarted = {
          moveId: deterministicEventId('training-level-start', studentId, academicYear, skill.skillId),
          studentId,
          organizationId: learner.organizationId,
          skillId: skill.skillId,
          measureCode: seed?.measureCode ?? skill.measureCode ?? null,
          level: level as TrainingLevelNumber,
          startedFrom,
          seedId: seed?.seedId ?? null,
          since: schoolDay,
          at,
          academicYear,
          ruleVersion: `${rules.version}/${ruleId}`,
        };
        events.push({
          eventId: data.moveId,
          type: TRAINING_LEVEL_STARTED,
          data,
          metadata: { organizationId: learner.organizationId },
        });
        continue;
      }
      const lastAt = row.last_move_at ?? row.started_at;
      if (seed && seed.seedId !== row.seed_id && new Date(seed.decidedAt) > lastAt && seed.level !== row.level) {
        const moveId = deterministicEventId(
          'training-level-rebaseline',
          studentId,
          academicYear,
          skill.skillId,
          seed.seedId,
        );
        const data: TrainingLevelMoved = {
          moveId,
          studentId,
          organizationId: learner.organizationId,
          skillId: skill.skillId,
          measureCode: seed.measureCode,
          fromLevel: row.level as TrainingLevelNumber,
          toLevel: seed.level,
          direction: 'rebaseline',
          ruleId: rules.moves.rebaseline.ruleId,
          ruleVersion: rules.version,
          evidenceAnswerIds: [],
          since: schoolDay,
          at,
          academicYear,
          seedId: seed.seedId,
        };
        events.push({
          eventId: moveId,
          type: TRAINING_LEVEL_MOVED,
          data,
          metadata: { organizationId: learner.organizationId },
        });
      }
    }
    return events;
  },
};

/**
 * Starts or rebaselines the child's levels (`ensureLevelsDecider`) on `traininglevel-<studentId>`, joining `uow`
 * (the day's opening). Returns the levels now, in training order (least recently practised first, then catalog
 * order).
 */
export async function ensureLevels(
  deps: { sql: Sql; store: EventStore },
  uow: UnitOfWork,
  learner: Learner,
  rules: TrainingRules,
  now: Date,
  schoolDay: string,
): Promise<LevelNow[]> {
  const { studentId, academicYear } = learner;
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: streams.level(studentId),
    decider: ensureLevelsDecider,
    command: { learner, rules, now, schoolDay },
    uow,
    load: {
      name: 'the trainable skills, seeds and levels, in the opening’s unit of work',
      inTransaction: true,
      async load(uow) {
        const sql = uow.sql;
        const [version, skills, seeds, rows, previous] = await Promise.all([
          levelStreamVersion(sql, studentId),
          trainableSkillsOf(sql, learner),
          trainingLevelSeedsOf(sql, studentId, { academicYear }),
          sql<LevelRowDb[]>`
            select l.skill_id, l.level, l.level_id, l.seed_id, l.started_at, l.last_move_at,
                   (select max(d.school_day)::text from trn_answers d where d.student_id = l.student_id and d.skill_id = l.skill_id) as last_practised
            from trn_levels l where l.student_id = ${studentId} and l.academic_year = ${academicYear}`,
          sql<{ skill_id: string; level: number }[]>`
            select distinct on (skill_id) skill_id, level from trn_levels
            where student_id = ${studentId} and academic_year < ${academicYear}
            order by skill_id, academic_year desc`,
        ]);
        return { state: { skills, seeds, rows, previous }, version };
      },
    },
  });
  const { skills, rows } = result.state;
  const appended = result.events;
  const current = new Map(
    rows.map((r) => [r.skill_id, { level: r.level, levelId: r.level_id, last: r.last_practised }]),
  );
  for (const e of trainingEvents(appended)) {
    if (e.type !== TRAINING_LEVEL_STARTED && e.type !== TRAINING_LEVEL_MOVED) continue;
    const d = e.data;
    const last = current.get(d.skillId)?.last ?? null;
    current.set(d.skillId, {
      level: e.type === TRAINING_LEVEL_STARTED ? e.data.level : e.data.toLevel,
      levelId: d.moveId,
      last,
    });
  }
  return skills
    .filter((s) => current.has(s.skillId))
    .map((s) => {
      const c = current.get(s.skillId)!;
      return {
        skillId: s.skillId,
        ordinal: s.ordinal,
        measureCode: s.measureCode,
        level: c.level as TrainingLevelNumber,
        levelId: c.levelId,
        lastPractisedOn: c.last,
      };
    })
    .sort((a, b) => (a.lastPractisedOn ?? '').localeCompare(b.lastPractisedOn ?? '') || a.ordinal - b.ordinal);
}
