import { DeciderSpecification, recordedEvents } from '@qiraa/command-kit/testing';
import type { ItemRowDb } from '@qiraa/content';
import { ApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import type { TrainingDayOpened } from '../engine/dayEvents';
import { currentSlot, type DayFold, foldDay } from '../engine/foldDay';
import {
  PRACTICE_ANSWER_RECORDED,
  SEND_EXERCISE_ADDED,
  SUPPORT_STEP_FIRED,
  TRAINING_DAY_ENDED,
  TRAINING_DAY_OPENED,
  TRAINING_LEVEL_MOVED,
} from '../events';
import type { Learner } from '../queries/learner';
import { CURRENT_TRAINING_RULES as rules } from '../rules/trainingRules';
import { endDayDecider } from './endDay';
import { levelMoveDecider } from './moveLevel';
import { openDayDecider } from './openDay';
import {
  type PracticeAnswer,
  type PracticeAnswerState,
  practiceAnswerDecider,
  type SupportReads,
} from './practiceAnswer';
import { addSendExerciseDecider } from './sendExercise';

const learner = {
  studentId: 7,
  organizationId: 'org-a',
  timeZone: 'Asia/Amman',
  academicYear: '2026-2027',
} as Learner;
const opened: TrainingDayOpened = {
  dayId: 'day-1',
  studentId: 7,
  organizationId: 'org-a',
  schoolDay: '2026-11-28',
  timeZone: 'Asia/Amman',
  academicYear: '2026-2027',
  leveled: true,
  ruleVersion: 'training-v1',
  exercises: [{ skillId: 'letter_sounds', level: 1, levelId: 'lvl-ls', measureCode: null, itemIds: ['i1', 'i2'] }],
  exit: { skillId: 'letter_sounds', level: 1, levelId: 'lvl-ls', itemId: 'x1' },
  plannedExercises: 1,
  questionsPerExercise: 2,
  openedAt: '2026-11-28T08:00:00.000Z',
};
const openedEvent = { type: TRAINING_DAY_OPENED, data: opened };
const dayOf = (...answers: { itemId: string; correct: boolean; attempt?: 1 | 2 }[]): DayFold =>
  foldDay(
    recordedEvents('trainingday-day-1', [
      openedEvent,
      ...answers.map((a, i) => ({
        type: PRACTICE_ANSWER_RECORDED,
        data: {
          answerId: `a${i}`,
          itemId: a.itemId,
          stepKind: 'target',
          exerciseIndex: 0,
          supportStepId: null,
          attempt: a.attempt ?? 1,
          correct: a.correct,
          counted: true,
          activeSeconds: 10 * (i + 1),
          answeredAt: `2026-11-28T08:0${i + 1}:00.000Z`,
        },
      })),
    ]),
  )!;
const item = (id: string): ItemRowDb =>
  ({ id, sub_skill_id: 'ls-1', correct_option_key: 'a', options: [{ key: 'a' }, { key: 'b' }] }) as ItemRowDb;
const stateOf = (fold: DayFold, itemId = currentSlot(fold)?.itemId): PracticeAnswerState => ({
  fold,
  slot: currentSlot(fold),
  item: itemId ? item(itemId) : null,
});
const answering = (itemId: string, key: string, at = '2026-11-28T09:00:00.000Z'): PracticeAnswer => ({
  learner,
  input: { itemId, selectedOptionKey: key },
  rules,
  now: new Date(at),
  today: '2026-11-28',
  preferSkillId: null,
  answerId: 'answer-1',
  stepId: 'step-1',
});
/** The bridge items and prompt a fired step shows (what `supportReadsOf` reads from the content bank). */
const bank: SupportReads = {
  bridgeItems: async () => ['b1', 'b2'],
  scaffoldPrompt: async () => ({ id: 'prompt-1', promptAr: 'هيا' }),
};
const refusedWith = (status: number, reason: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect([(error as ApiError).status, (error as ApiError).reason]).toEqual([status, reason]);
};

describe('a practice answer (decider)', () => {
  const spec = DeciderSpecification.for(practiceAnswerDecider(bank));

  it('records the answer to the slot asked, counted when nothing excludes it', async () => {
    const [answer] = await spec.givenState(stateOf(dayOf())).when(answering('i1', 'a')).events();
    expect(answer).toMatchObject({
      eventId: 'answer-1',
      type: PRACTICE_ANSWER_RECORDED,
      data: { itemId: 'i1', role: 'ordinary', attempt: 1, correct: true, counted: true, notCounted: null },
      metadata: { organizationId: 'org-a', actorUserId: 7 },
    });
  });

  it('refuses an item that is not the one asked (409), an unknown option (422), a day not open (409)', async () => {
    await spec.givenState(stateOf(dayOf())).when(answering('i2', 'a')).thenThrows(refusedWith(409, 'item_not_current'));
    await spec.givenState(stateOf(dayOf())).when(answering('i1', 'z')).thenThrows(refusedWith(422, 'unknown_option'));
    await spec
      .givenState({ fold: null, slot: null, item: null })
      .when(answering('i1', 'a'))
      .thenThrows(refusedWith(409, 'no_open_training_day'));
    await spec
      .givenState(stateOf(dayOf()))
      .when({ ...answering('i1', 'a'), today: '2026-11-29' })
      .thenThrows(refusedWith(409, 'no_open_training_day'));
  });

  it('the second wrong first try of a level-1 exercise fires a support step from the bank', async () => {
    // i1 wrong, then wrong again (item finished), i2 wrong at its first try: two wrong first tries.
    const day = dayOf({ itemId: 'i1', correct: false }, { itemId: 'i1', correct: false, attempt: 2 });
    const events = await spec.givenState(stateOf(day)).when(answering('i2', 'b')).events();
    expect(events.map((e) => e.type)).toEqual([PRACTICE_ANSWER_RECORDED]);
    const retried = dayOf(
      { itemId: 'i1', correct: false },
      { itemId: 'i1', correct: false, attempt: 2 },
      { itemId: 'i2', correct: false },
    );
    const fired = await spec.givenState(stateOf(retried)).when(answering('i2', 'b')).events();
    expect(fired.map((e) => e.type)).toEqual([PRACTICE_ANSWER_RECORDED, SUPPORT_STEP_FIRED]);
    expect(fired[1]!.data).toMatchObject({
      stepId: 'step-1',
      ruleId: 'BR-01',
      itemIds: ['b1', 'b2'],
      promptId: 'prompt-1',
    });
  });

  it('the closing question ends the day `done`', async () => {
    const day = dayOf({ itemId: 'i1', correct: true }, { itemId: 'i2', correct: true });
    const events = await spec.givenState(stateOf(day)).when(answering('x1', 'a')).events();
    expect(events.map((e) => e.type)).toEqual([PRACTICE_ANSWER_RECORDED, TRAINING_DAY_ENDED]);
    expect(events[1]!.data).toMatchObject({ endReason: 'done', counted: 2, correct: 2 });
  });
});

describe('ending a day (decider)', () => {
  const spec = DeciderSpecification.for(endDayDecider);
  const at = new Date('2026-11-28T20:00:00.000Z');

  it('ends an open day once; a day not opened or ended already stays as it is', async () => {
    const [ended] = await spec.given([openedEvent]).when({ reason: 'window_closed', at }).events();
    expect(ended).toMatchObject({ type: TRAINING_DAY_ENDED, data: { dayId: 'day-1', endReason: 'window_closed' } });
    await spec.given([]).when({ reason: 'window_closed', at }).thenNothing();
    await spec.given([openedEvent, ended!]).when({ reason: 'window_closed', at }).thenNothing();
  });
});

describe('opening a day (decider)', () => {
  const spec = DeciderSpecification.for(openDayDecider);
  const command = {
    dayId: 'day-2',
    learner,
    rules,
    schoolDay: '2026-11-29',
    now: new Date('2026-11-29T07:00:00.000Z'),
  };

  it('plans the day from what the levels serve; nothing to serve: no day', async () => {
    const pools = [
      {
        skillId: 'letter_sounds',
        level: 1 as const,
        levelId: 'lvl-ls',
        measureCode: null,
        itemIds: ['i1', 'i2', 'i3', 'i4', 'i5'],
      },
    ];
    const [day] = await spec
      .given([])
      .when({ ...command, pools })
      .events();
    expect(day).toMatchObject({ type: TRAINING_DAY_OPENED, data: { dayId: 'day-2', studentId: 7, leveled: true } });
    expect(day!.data.exercises.length).toBeGreaterThan(0);
    await spec
      .given([])
      .when({ ...command, pools: [{ ...pools[0]!, itemIds: [] }] })
      .thenNothing();
  });
});

describe('a send’s exercise (decider)', () => {
  const spec = DeciderSpecification.for(addSendExerciseDecider);
  const command = {
    learner,
    rules,
    send: { sendId: 'send-1', skillId: 'blending' },
    now: new Date('2026-11-28T09:00:00.000Z'),
  };
  const level = { level: 2, levelId: 'lvl-bl', measureCode: null };

  it('adds the sent skill’s unplanned items at the child’s level, once per send and day', async () => {
    const [added] = await spec
      .givenState({ fold: dayOf(), level, pool: ['i1', 'b7', 'b8', 'b9', 'b10', 'b11'] })
      .when(command)
      .events();
    expect(added).toMatchObject({
      type: SEND_EXERCISE_ADDED,
      data: { sendId: 'send-1', exercise: { skillId: 'blending', level: 2, itemIds: ['b7', 'b8', 'b9', 'b10'] } },
    });
  });

  it('nothing without a level, without an unplanned item, or when the day plans the skill', async () => {
    await spec
      .givenState({ fold: dayOf(), level: null, pool: ['b7'] })
      .when(command)
      .thenNothing();
    await spec
      .givenState({ fold: dayOf(), level, pool: ['i1', 'i2'] })
      .when(command)
      .thenNothing();
    const planned = { ...command, send: { sendId: 'send-1', skillId: 'letter_sounds' } };
    await spec
      .givenState({ fold: dayOf(), level, pool: ['b7'] })
      .when(planned)
      .thenNothing();
  });
});

describe('a level move after a counted answer (decider)', () => {
  const spec = DeciderSpecification.for(levelMoveDecider);
  const answer = {
    answerId: 'a8',
    studentId: 7,
    skillId: 'letter_sounds',
    levelId: 'lvl-ls',
    dayId: 'day-1',
    schoolDay: '2026-11-28',
    answeredAt: '2026-11-28T09:00:00.000Z',
  } as never;
  const command = { answer, rules, academicYear: '2026-2027', organizationId: 'org-a' };
  const answers = (correct: number, days: string[]) =>
    Array.from({ length: 8 }, (_, i) => ({
      answerId: `a${i + 1}`,
      correct: i < correct,
      schoolDay: days[i % days.length]!,
    }));
  const level = { level: 1, levelId: 'lvl-ls', measureCode: 'LSF' };

  it('TLM-01: 8 counted answers, 80 % right, over 2 days move the level up, once (the id)', async () => {
    const [moved] = await spec
      .givenState({ level, answers: answers(7, ['2026-11-27', '2026-11-28']) })
      .when(command)
      .events();
    expect(moved).toMatchObject({
      type: TRAINING_LEVEL_MOVED,
      data: { fromLevel: 1, toLevel: 2, direction: 'up', measureCode: 'LSF', since: '2026-11-28' },
    });
  });

  it('nothing on one day only, or when the level moved since the day was planned', async () => {
    await spec
      .givenState({ level, answers: answers(8, ['2026-11-28']) })
      .when(command)
      .thenNothing();
    await spec
      .givenState({ level: { ...level, levelId: 'lvl-newer' }, answers: answers(8, ['2026-11-27', '2026-11-28']) })
      .when(command)
      .thenNothing();
  });
});
