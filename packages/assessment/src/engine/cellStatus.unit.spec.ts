import { describe, expect, it } from 'vitest';
import { cellView, type LatestAttempt } from './cellStatus';

const started = new Date('2026-09-10T08:00:00Z');
const ended = new Date('2026-09-10T08:20:00Z');
const attempt = (over: Partial<LatestAttempt>): LatestAttempt => ({
  attemptId: 'a1',
  status: 'done',
  startedAt: started,
  endedAt: ended,
  voidedAt: null,
  result: { raw: 3 },
  restarts: 0,
  ...over,
});

describe('cellView', () => {
  it('no attempt: not_started, or unavailable outside the blueprint', () => {
    expect(cellView(undefined, true).status).toBe('not_started');
    expect(cellView(undefined, false)).toEqual({
      status: 'unavailable',
      attemptId: null,
      at: null,
      result: null,
      restarts: 0,
    });
  });

  it('done and stopped show the end and the result; in progress the start and no result', () => {
    expect(cellView(attempt({}), true)).toEqual({
      status: 'done',
      attemptId: 'a1',
      at: ended.toISOString(),
      result: { raw: 3 },
      restarts: 0,
    });
    expect(cellView(attempt({ status: 'stopped', restarts: 2 }), true)).toMatchObject({
      status: 'stopped',
      restarts: 2,
    });
    expect(cellView(attempt({ status: 'in_progress', endedAt: null, result: { x: 1 } }), true)).toMatchObject({
      status: 'in_progress',
      at: started.toISOString(),
      result: null,
    });
  });

  it('a voided latest attempt is restarted_pending and hides its id and result', () => {
    const voidedAt = new Date('2026-09-10T09:00:00Z');
    expect(cellView(attempt({ voidedAt, restarts: 1 }), true)).toEqual({
      status: 'restarted_pending',
      attemptId: null,
      at: voidedAt.toISOString(),
      result: null,
      restarts: 1,
    });
  });

  it('an attempt in a cell the blueprint no longer lists still shows', () => {
    expect(cellView(attempt({}), false).status).toBe('done');
  });
});
