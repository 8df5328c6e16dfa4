import { useTestApp } from '@qiraa/app/testing';
import type { EventStore } from '@qiraa/eventstore';
import { describe, expect, it } from 'vitest';
import { SITTING_STOPPED, streams } from '../events';
import { startSitting } from '../testing/attempts';
import { stopOpenSitting } from './stopOpenSitting';

const t = useTestApp();
const place = { organizationId: 'org_x', schoolId: 'sch_x', classId: 'cls_x', studentId: 1 };

/**
 * The real store, except that the first read of a stream is taken before `meanwhile` runs: what a close
 * sees when an answer or a completion lands between its read and its append.
 */
function racedStore(store: EventStore, meanwhile: () => Promise<void>): EventStore {
  let first = true;
  return Object.assign(Object.create(store) as EventStore, {
    async readStream(streamId: string) {
      const events = await store.readStream(streamId);
      if (first) {
        first = false;
        await meanwhile();
      }
      return events;
    },
  });
}

describe('stopOpenSitting', () => {
  it('decides again when an answer lands between its read and its append, then stops after it', async () => {
    const deps = { sql: t.runtime.sql, store: t.runtime.store };
    const sitting = await startSitting(deps, place);
    const store = racedStore(t.runtime.store, () => sitting.answer(1));
    expect(await stopOpenSitting({ sql: t.runtime.sql, store }, sitting.attemptId, 'window_closed', new Date())).toBe(
      true,
    );
    const events = await t.runtime.store.readStream(streams.sitting(sitting.attemptId));
    expect(events.map((e) => e.type)).toEqual(['SittingStarted', 'SittingAnswerRecorded', SITTING_STOPPED]);
  });

  it('leaves a sitting alone when a completion lands meanwhile', async () => {
    const deps = { sql: t.runtime.sql, store: t.runtime.store };
    const sitting = await startSitting(deps, place);
    const store = racedStore(t.runtime.store, () => sitting.complete());
    expect(await stopOpenSitting({ sql: t.runtime.sql, store }, sitting.attemptId, 'window_closed', new Date())).toBe(
      false,
    );
    const events = await t.runtime.store.readStream(streams.sitting(sitting.attemptId));
    expect(events.map((e) => e.type)).toEqual(['SittingStarted', 'SittingCompleted']);
    const [row] = await t.runtime.sql`select status from asm_attempts where attempt_id = ${sitting.attemptId}`;
    expect(row!.status).toBe('done');
  });
});
