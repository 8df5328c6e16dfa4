import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { ApiError } from '@qiraa/http-kit';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_VOIDED, ORAL_READING_MARKED, ORAL_READING_STARTED, ORAL_READING_STOPPED } from '../events';
import { type OralReadingChange, oralReadingDecider } from './changeOralReading';

const started = {
  type: ORAL_READING_STARTED,
  data: { attemptId: 'a-1', studentId: 7, organizationId: 'org-a', wordCount: 3, kind: 'oral_text' },
};
const marked = (wordIndex: number, mark: string) => ({
  type: ORAL_READING_MARKED,
  data: { attemptId: 'a-1', wordIndex, mark, markedBy: 40, at: '2026-11-28T08:00:00.000Z' },
});
const mark: OralReadingChange = (reading) => [
  { type: ORAL_READING_MARKED, data: { wordIndex: reading.marks.size, mark: 'error' } },
];
const refused = (status: number, reason?: string) => (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  if (reason) expect((error as ApiError).reason).toBe(reason);
};

describe('changing an oral reading (decider)', () => {
  const spec = DeciderSpecification.for(oralReadingDecider);

  it('an open reading takes the change, decided on its folded marks', async () => {
    await spec
      .given([started, marked(0, 'error')])
      .when(mark)
      .thenEvents([{ type: ORAL_READING_MARKED, data: { wordIndex: 1, mark: 'error' } }]);
  });

  it('no reading: 404; voided: 409 voided (before stopped); stopped: 409 already_stopped', async () => {
    await spec.given([]).when(mark).thenThrows(refused(404));
    const stopped = { type: ORAL_READING_STOPPED, data: { attemptId: 'a-1', at: '2026-11-28T08:05:00.000Z' } };
    const voided = { type: ATTEMPT_VOIDED, data: { attemptId: 'a-1', kind: 'oral_text', voidId: 1 } };
    await spec.given([started, stopped]).when(mark).thenThrows(refused(409, 'already_stopped'));
    await spec.given([started, stopped, voided]).when(mark).thenThrows(refused(409, 'voided'));
  });

  it('the change’s own refusal ends the command', async () => {
    const outOfRange: OralReadingChange = () => {
      throw new ApiError(422, 'VALIDATION_ERROR', 'out of range');
    };
    await spec.given([started]).when(outOfRange).thenThrows(refused(422));
  });

  it('a word’s latest mark counts in the folded state', async () => {
    const events = await spec
      .given([started, marked(0, 'error'), marked(0, 'self_correction'), marked(2, 'error')])
      .when((reading) => [{ type: 'Probe', data: Object.fromEntries(reading.marks) }])
      .events();
    expect(events[0]?.data).toEqual({ 0: 'self_correction', 2: 'error' });
  });
});
