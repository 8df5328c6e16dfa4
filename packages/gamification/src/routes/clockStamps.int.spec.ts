import { client, useTestWorld } from '@qiraa/app/testing';
import { manualClock } from '@qiraa/kernel';
import { describe, expect, it } from 'vitest';
import { replayReport } from '../replay';

/**
 * A badge's awardedAt and a rescind's rescindedAt are the injected clock's (issue 22), not the wall clock's nor
 * the database's: the app runs on a manual clock set months ahead, as QIRAA_CLOCK_SHIFT_DAYS would move it. The
 * events' createdAt stays the database's (the event log's own stamp), and replay "as of" agrees with the read
 * models whichever of the two clocks the instant is read on.
 */
const AWARDED = new Date('2027-03-14T08:00:00Z');
const DAY_MS = 86_400_000;
const clock = manualClock(AWARDED);
const { t, w } = useTestWorld({ clock });

const engine = () => client(t.app, w.a.adminToken);

interface Badge {
  code: string;
  studentBadgeId: number;
  status: string;
  awardedAt: string;
}

describe('gamification stamps by the injected clock', () => {
  it('stamps awardedAt and rescindedAt with the clock; replay finds no drift on either clock', async () => {
    clock.set(AWARDED);
    const res = await engine().post('/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `clock-stamps-${process.pid}`,
      studentId: w.a.studentId,
      sourceKind: 'band_progression',
      occurredAt: '2027-03-14T07:59:00Z',
      sessionId: 'clock-stamps-session',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().badgeCode).toBe('first_step');

    const profile = await client(t.app, w.a.teacherToken).get(`/api/students/${w.a.studentId}/gamification/profile`);
    expect(profile.statusCode, profile.body).toBe(200);
    const [badge] = profile.json().badges as Badge[];
    expect(badge).toMatchObject({ code: 'first_step', status: 'active', awardedAt: AWARDED.toISOString() });
    const [award] = await t.runtime.store.readStream(`badgeaward-${w.a.studentId}`);
    expect(award!.data).toMatchObject({ awardedAt: AWARDED.toISOString() });

    clock.advance(2 * DAY_MS);
    const rescinded = await client(t.app, w.a.teacherToken).post(
      `/api/teachers/badges/${badge!.studentBadgeId}/rescind`,
      {
        overrideCode: 'Gam_Award_Invalid_05',
      },
    );
    expect(rescinded.statusCode, rescinded.body).toBe(200);
    const at = new Date(AWARDED.getTime() + 2 * DAY_MS).toISOString();
    const [event] = await t.runtime.store.readStream(`badgerescind-${w.a.studentId}`);
    expect(event!.data).toMatchObject({ studentBadgeId: badge!.studentBadgeId, rescindedAt: at });
    const [row] = await t.db.sql<{ rescinded_at: Date }[]>`
      select rescinded_at from gam_badge_rescinds where student_badge_id = ${badge!.studentBadgeId}`;
    expect(row!.rescinded_at.toISOString()).toBe(at);
    // The log's own stamp did not move: the event was recorded on the database's clock, months before `at`.
    expect(event!.createdAt.getTime()).toBeLessThan(AWARDED.getTime());

    // As of the wall clock (after the events were recorded, before the clock's stamps) and as of the clock.
    const deps = { sql: t.db.sql, store: t.runtime.store };
    for (const asOf of [new Date(Date.now() + 60_000), clock.now()]) {
      const report = await replayReport(deps, w.a.studentId, asOf);
      expect(report.hasDrift, JSON.stringify(report)).toBe(false);
      expect(report.stored.badgeCodes).toEqual([]);
    }
  });
});
