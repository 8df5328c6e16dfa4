import { DeciderSpecification } from '@qiraa/command-kit/testing';
import type { WordListView } from '@qiraa/content';
import { deterministicEventId } from '@qiraa/eventstore';
import { ApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import { WORD_LIST_READ, type WordListReadData } from '../events';
import { type RecordWordListRead, recordWordListReadDecider, type WordListReadFacts } from './recordWordListRead';

const spec = DeciderSpecification.for(recordWordListReadDecider);
const attemptId = 'a1b2c3d4-0000-4000-8000-000000000005';
const at = new Date('2026-10-05T09:00:00Z');
const place = { organizationId: 'org_1', schoolId: 's1', classId: 'c1', grade: 2, academicYear: '2026-2027' };
const list = {
  id: 'wl1',
  version: 2,
  grade: 2,
  window: null,
  wordCount: 10,
  timing: { timed: false, durationSeconds: null },
  scope: 'global',
  organizationId: null,
  schoolId: null,
  status: 'operational',
} as unknown as WordListView;
const facts: WordListReadFacts = {
  list,
  place,
  cell: 'oral_familiar_words',
  window: { open: 'BOY', today: '2026-10-05' },
  cuts: { table: null, status: 'provisional' },
};
const read = (over: Partial<RecordWordListRead['input']> = {}, f: Partial<WordListReadFacts> = {}) => ({
  attemptId,
  teacherId: 40,
  at,
  input: { studentId: 7, wordListId: 'wl1', errorIndices: [3, 1, 3], ...over },
  facts: { ...facts, ...f },
});
const given = spec.givenState(recordWordListReadDecider.initialState());
const refused = (status: number, reason?: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  expect((error as ApiError).reason).toBe(reason);
};

describe('recordWordListReadDecider', () => {
  it('records the raw counts of an untimed read, in the teacher’s name', async () => {
    const [event] = await spec.givenState({ supersedesVoidId: 2, recorded: null }).when(read()).events();
    expect(event?.eventId).toBe(deterministicEventId('word-list-read', attemptId));
    expect(event?.type).toBe(WORD_LIST_READ);
    expect(event?.metadata).toEqual({ organizationId: 'org_1', actorUserId: 40 });
    expect(event?.data).toMatchObject<Partial<WordListReadData>>({
      attemptId,
      kind: 'oral_word_list',
      cell: 'oral_familiar_words',
      window: 'BOY',
      supersedesVoidId: 2,
      startedBy: 40,
      errorIndices: [1, 3],
      attempted: 10,
      errors: 2,
      cut: null,
      rateCut: 'no_norm',
    });
  });

  it('refuses, in order: not served (404), another grade, no open window, another window, an uncountable read', async () => {
    const draft = { ...list, status: 'retired' } as WordListView;
    await given.when(read({}, { list: draft, place: { ...place, grade: 3 } })).thenThrows(refused(404));
    await given.when(read({}, { cell: null })).thenThrows(refused(404));
    const closed = { window: { open: null, today: '2026-12-20' }, cuts: null };
    await given
      .when(read({}, { place: { ...place, grade: 3 }, ...closed }))
      .thenThrows(refused(422, 'word_list_grade_mismatch'));
    const moyList = { ...list, window: 'MOY' } as WordListView;
    await given.when(read({}, { list: moyList, ...closed })).thenThrows(refused(409, 'no_open_window'));
    await given.when(read({}, { list: moyList })).thenThrows(refused(422, 'word_list_window_mismatch'));
    await given.when(read({ last_word_index: 4 })).thenThrows(refused(422, 'word_list_not_timed'));
  });
});
