import { client, useTestWorld } from '@qiraa/app/testing';
import { setWindows } from '@qiraa/assessment/testing';
import { rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { profileProjection } from '../projections/profileProjection';
import { recordOrfProbe } from '../testing/orfProbeFixture';
import { recordSitting } from '../testing/sittingFixture';

const { t, w } = useTestWorld();
let s: number;

/** A student with a decided BOY profile (WORD_LEVEL_FOCUS) and its recommendation. */
beforeAll(async () => {
  await setWindows(t.db.sql, w.a.id, '2026-2027', 'BOY');
  const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'سلمى' });
  s = res.json().studentId;
  const place = {
    organizationId: w.a.id,
    schoolId: w.a.schoolId,
    classId: w.a.classId,
    studentId: s,
    teacherId: w.a.teacherId,
  };
  await recordOrfProbe(t.runtime, place, new Date(), 30);
  await recordSitting(t.runtime, place, [
    { subSkillId: 'ls_short_vowels', measureCode: 'word_recognition', correct: false },
    { subSkillId: 'ls_short_vowels', measureCode: 'word_recognition', correct: false },
    { subSkillId: 'ls_short_vowels', measureCode: 'word_recognition', correct: true },
    { subSkillId: 'lc_explicit_detail', measureCode: 'text1_comprehension', correct: true },
    { subSkillId: 'lc_explicit_detail', measureCode: 'text1_comprehension', correct: true },
    { subSkillId: 'lc_explicit_detail', measureCode: 'text1_comprehension', correct: true },
  ]);
  await recomputeSkillStatus(t.runtime, s);
}, 120_000);

const replay = async () => {
  const res = await client(t.app, w.superToken).post('/api/admin/decisions/replay', { studentId: s });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('decisions replay: profiles and recommendations', () => {
  it('derives the profile and the recommendation again: no drift on a clean student', async () => {
    const body = await replay();
    expect(body.hasDrift).toBe(false);
    expect(body.profiles.profiles).toEqual([
      expect.objectContaining({
        academicYear: '2026-2027',
        window: 'BOY',
        drift: [],
        derived: expect.objectContaining({ profileCode: 'PR2-02' }),
      }),
    ]);
    expect(body.profiles.profiles[0].derived).toEqual(body.profiles.profiles[0].stored);
    expect(body.profiles.recommendations[0]).toMatchObject({
      drift: [],
      derived: { bundleId: 'bnd_decoding_foundations', ruleId: 'BRR-01' },
    });
  });

  it('rows changed behind the service drift on exactly those fields; a rebuild of decisions_profiles clears it', async () => {
    await t.db.sql`update dec_profiles set profile_code = 'PR2-01', profile_name = 'ON_TRACK' where student_id = ${s}`;
    await t.db.sql`update dec_recommendations set scaffold_tier = 'Level_3' where student_id = ${s}`;
    const drifted = await replay();
    expect(drifted.hasDrift).toBe(true);
    expect(drifted.keys.every((k: { drift: string[] }) => k.drift.length === 0)).toBe(true);
    expect(drifted.profiles.profiles[0].drift).toEqual(['profileCode', 'profileName']);
    expect(drifted.profiles.recommendations[0].drift).toEqual(['scaffoldTier']);
    // A deleted row: every field drifts.
    await t.db.sql`delete from dec_recommendations where student_id = ${s}`;
    expect((await replay()).profiles.recommendations[0]).toMatchObject({
      stored: null,
      drift: expect.arrayContaining(['bundleId', 'outcome']),
    });

    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, profileProjection);
    expect((await replay()).hasDrift).toBe(false);
  });
});
