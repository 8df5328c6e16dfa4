import { client, useTestWorld } from '@qiraa/app/testing';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';

/** Issue 24, items 6 and 8 and the parent's read: celebrations reach the child; the parent reads no number. */
const { t, w } = useTestWorld();
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']; // Sunday to Thursday

beforeAll(async () => {
  // Five mastery events on five consecutive school days: avatar tier 2 and the 5-day streak milestone.
  for (const [i, day] of DAYS.entries()) {
    const res = await client(t.app, w.a.adminToken).post('/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `celebrate-${process.pid}-${i}`,
      studentId: w.a.studentId,
      sourceKind: 'subskill_state_up',
      schoolDay: day,
      occurredAt: `${day}T08:00:00Z`,
      sessionId: `celebrate-${i}`,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}, 60_000);

const profileAs = async (token: string) => {
  const res = await client(t.app, token).get(`/api/students/${w.a.studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ack = (token: string, celebrationId: string) =>
  client(t.app, token).post(`/api/students/${w.a.studentId}/gamification/celebrations/${celebrationId}/ack`, {});

describe('celebrations', () => {
  let tierId: string;
  let streakId: string;

  it("the student's own profile carries the avatar tier and streak milestone celebrations; adults' do not", async () => {
    const own = await profileAs(w.a.studentToken);
    expect(own.celebrations).toEqual([
      { id: expect.any(String), kind: 'avatar_tier', tier: 2, at: expect.any(String) },
      { id: expect.any(String), kind: 'streak_milestone', days: 5, at: expect.any(String) },
    ]);
    tierId = own.celebrations[0].id;
    streakId = own.celebrations[1].id;
    expect((await profileAs(w.a.teacherToken)).celebrations).toBeUndefined();
  });

  it('an acknowledged celebration leaves the list; repeating the ack answers the first one', async () => {
    const first = await ack(w.a.studentToken, tierId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      id: tierId,
      kind: 'avatar_tier',
      tier: 2,
      at: expect.any(String),
      acknowledgedAt: expect.any(String),
    });
    const again = await ack(w.a.studentToken, tierId);
    expect(again.statusCode).toBe(200);
    expect(again.json().acknowledgedAt).toBe(first.json().acknowledgedAt);
    expect((await profileAs(w.a.studentToken)).celebrations.map((c: { id: string }) => c.id)).toEqual([streakId]);
  });

  it('only the student acknowledges: an adult who reaches the student 403, an unknown celebration 404', async () => {
    expect((await ack(w.a.teacherToken, streakId)).statusCode).toBe(403);
    expect((await ack(w.a.parentToken, streakId)).statusCode).toBe(403);
    expect((await ack(w.b.studentToken, streakId)).statusCode).toBe(404);
    const unknown = await ack(w.a.studentToken, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
  });

  it('one per (student, tier) and per (student, milestone) after a replay of the events; a rebuild keeps acks', async () => {
    await t.db
      .sql`update projection_checkpoints set checkpoint = null where name = ${gamificationLedgerProjection.name}`;
    await t.runtime.projector.catchUp(gamificationLedgerProjection.name);
    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    const own = await profileAs(w.a.studentToken);
    expect(own.celebrations.map((c: { id: string }) => c.id)).toEqual([streakId]);
  });
});

describe("the parent's gamification profile", () => {
  it('is number-free: phrases and badge names, no XP, tier, streak count, badge id or code; every string parent-safe', async () => {
    const body = await profileAs(w.a.parentToken);
    expect(Object.keys(body).sort()).toEqual(['badges', 'journeyAr', 'streakAr', 'studentId']);
    expect(body.studentId).toBe(w.a.studentId);
    expect(body.badges.length).toBeGreaterThan(0);
    for (const badge of body.badges) {
      expect(Object.keys(badge).sort()).toEqual(['awardedAt', 'descriptionAr', 'nameAr']);
      expect(badge.awardedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const filter = await loadLanguageSafety(t.db.sql);
    const strings = [
      body.journeyAr,
      body.streakAr,
      ...body.badges.flatMap((b: { nameAr: string; descriptionAr: string }) => [b.nameAr, b.descriptionAr]),
    ];
    for (const text of strings) {
      expect(text).not.toMatch(/[0-9٠-٩۰-۹]/);
      expect(filter.check(text, 'parent').kind, text).toBe('pass');
    }
    // The adult view of the same child still has the numbers.
    expect(await profileAs(w.a.teacherToken)).toMatchObject({ xpBalance: expect.any(Number), avatarTier: 2 });
  });
});
