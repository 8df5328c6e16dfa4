import { DeciderSpecification } from '@qiraa/command-kit/testing';
import type { ItemRowDb } from '@qiraa/content';
import { ApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import { SESSION_ANSWER_RECORDED, SESSION_SLOT_COMPLETED } from '../events';
import type { QueuedSession } from '../queries/sessionQueue';
import { sessionAnswerDecider } from './answerSessionItem';

const queued = (answered: string[]): QueuedSession => ({
  sessionId: 'session-1',
  slotId: 'slot-1',
  studentId: 7,
  organizationId: 'org-a',
  itemIds: ['i1', 'i2'],
  answeredItemIds: answered,
  correct: answered.length,
});
const item = (id: string, subSkillId = 'ss-1') =>
  ({ id, sub_skill_id: subSkillId, correct_option_key: 'a', options: [{ key: 'a' }, { key: 'b' }] }) as ItemRowDb;
const command = (itemId: string, key = 'a') => ({
  studentId: 7,
  input: { itemId, selectedOptionKey: key },
  now: new Date('2026-11-28T09:00:00.000Z'),
});
const refusedWith = (status: number, reason: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect([(error as ApiError).status, (error as ApiError).reason]).toEqual([status, reason]);
};

describe('a session answer (decider)', () => {
  const spec = DeciderSpecification.for(sessionAnswerDecider);

  it('records the current item’s answer; the last one completes the slot with counts per sub-skill', async () => {
    const first = await spec
      .givenState({ queued: queued([]), item: item('i1'), stored: [] })
      .when(command('i1'))
      .events();
    expect(first.map((e) => e.type)).toEqual([SESSION_ANSWER_RECORDED]);
    expect(first[0]!.data).toMatchObject({ itemId: 'i1', position: 1, correct: true, total: 2 });
    const last = await spec
      .givenState({ queued: queued(['i1']), item: item('i2', 'ss-2'), stored: [{ subSkillId: 'ss-1', correct: true }] })
      .when(command('i2', 'b'))
      .events();
    expect(last.map((e) => e.type)).toEqual([SESSION_ANSWER_RECORDED, SESSION_SLOT_COMPLETED]);
    expect(last[1]!.data).toMatchObject({
      total: 2,
      correct: 1,
      bySubSkill: [
        { subSkillId: 'ss-1', answered: 1, correct: 1 },
        { subSkillId: 'ss-2', answered: 1, correct: 0 },
      ],
    });
  });

  it('nothing without a queued session; another item 409; an unknown option 422', async () => {
    await spec.givenState(sessionAnswerDecider.initialState()).when(command('i1')).thenNothing();
    await spec
      .givenState({ queued: queued(['i1']), item: null, stored: [] })
      .when(command('i1'))
      .thenThrows(refusedWith(409, 'item_not_current'));
    await spec
      .givenState({ queued: queued([]), item: item('i1'), stored: [] })
      .when(command('i1', 'z'))
      .thenThrows(refusedWith(422, 'unknown_option'));
  });
});
