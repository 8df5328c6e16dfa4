import { strictEqual } from 'node:assert/strict';
import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { describe, it } from 'vitest';
import { SITTING_ANSWER_RECORDED } from '../events';
import type { SittingAnswerRecorded, SittingFold } from '../events/sittingTypes';
import type { AnswerFacts } from './answerFacts';
import { SittingRefused } from './refusal';
import { type AnswerState, answerSittingDecider } from './sittingCommands';

// The rules below decide without a read: only a closing answer or a closed window reads the cut tables.
const decider = answerSittingDecider({ sql: null as never, store: null as never });
const spec = DeciderSpecification.for(decider);

const attemptId = 'a1b2c3d4-0000-4000-8000-000000000001';
const now = new Date('2026-10-05T09:00:00Z');
const plan = [
  { itemId: 'item-1', measureCode: 'M1' },
  { itemId: 'item-2', measureCode: 'M1' },
];
const sitting = {
  attemptId,
  started: { attemptId, studentId: 7, organizationId: 'org_1', academicYear: '2026-2027', window: 'BOY', plan },
  answers: new Map<number, SittingAnswerRecorded>(),
  status: 'in_progress',
  endReason: null,
  endedAt: null,
  voided: false,
  streamVersion: 1n,
} as unknown as SittingFold;
const facts: Pick<AnswerFacts, 'item' | 'window'> = {
  item: { organizationId: null, correctOptionKey: 'b', optionKeys: ['a', 'b', 'c'] },
  window: {
    timeZone: 'Asia/Amman',
    stored: [
      { evidence_window: 'BOY', starts_on: '2026-09-01', ends_on: '2026-11-30' },
      { evidence_window: 'MOY', starts_on: '2027-01-10', ends_on: '2027-02-28' },
      { evidence_window: 'EOY', starts_on: '2027-05-01', ends_on: '2027-06-15' },
    ],
    overrides: [],
  },
};
const state = (fold: Partial<SittingFold> = {}): AnswerState => ({ fold: { ...sitting, ...fold }, facts });
const answer = (itemId: string, given: string) => ({ attemptId, itemId, answer: given, now });
const refused = (reason: string) => (error: unknown) =>
  strictEqual(error instanceof SittingRefused && error.reason, reason);
const first: SittingAnswerRecorded = {
  attemptId,
  position: 0,
  itemId: 'item-1',
  measureCode: 'M1',
  answer: 'b',
  correct: true,
  at: now.toISOString(),
};

describe('answerSittingDecider', () => {
  it('scores the served question’s answer on the server, in the child’s name', async () => {
    await spec
      .givenState(state())
      .when(answer('item-1', 'b'))
      .thenEvents([
        {
          type: SITTING_ANSWER_RECORDED,
          data: first,
          metadata: { actorUserId: 7, organizationId: 'org_1' },
        },
      ]);
  });

  it('takes the same answer again as done, another answer to it as already_answered', async () => {
    const answered = state({ answers: new Map([[0, first]]) });
    await spec.givenState(answered).when(answer('item-1', 'b')).thenNothing();
    await spec.givenState(answered).when(answer('item-1', 'a')).thenThrows(refused('already_answered'));
  });

  it('refuses a question not served now, and an answer not among the item’s options', async () => {
    await spec.givenState(state()).when(answer('item-2', 'b')).thenThrows(refused('not_the_served_item'));
    await spec.givenState(state()).when(answer('item-1', 'z')).thenThrows(refused('not_an_option'));
  });

  it('refuses every answer to a stopped or voided sitting', async () => {
    const stopped = state({ status: 'stopped', endReason: 'stopped_by_teacher' });
    await spec.givenState(stopped).when(answer('item-1', 'b')).thenThrows(refused('sitting_stopped'));
    await spec
      .givenState(state({ voided: true }))
      .when(answer('item-1', 'b'))
      .thenThrows(refused('voided'));
  });
});
