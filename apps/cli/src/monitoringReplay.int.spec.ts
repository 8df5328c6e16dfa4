import { client, useTestWorld } from '@qiraa/app/testing';
import { setWindows } from '@qiraa/assessment/testing';
import { recomputeSkillStatus } from '@qiraa/decisions';
import { recordOrfProbe } from '@qiraa/decisions/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

const { t, w } = useTestWorld();
let env: NodeJS.ProcessEnv;
let s: number;

/** Six weekly probes rising 5 WCPM a week: a trend above the goal line. */
beforeAll(async () => {
  env = { DATABASE_URL: t.db.url };
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
  for (const [i, words] of [25, 30, 35, 40, 45, 50].entries()) {
    await recordOrfProbe(t.runtime, place, new Date(Date.now() - (56 - 7 * i) * 86_400_000), words);
  }
  await recomputeSkillStatus(t.runtime, s);
}, 120_000);

describe('qiraa decisions replay: progress monitoring', () => {
  it('prints one line for a drifted trend, exits 1; a rebuild of decisions_monitoring clears it', async () => {
    expect((await runCli(['decisions', 'replay', '--student', String(s)], env)).code).toBe(0);
    await t.db.sql`update dec_trends set decision = 'below_goal' where student_id = ${s}`;
    const drifted = await runCliInProcess(['decisions', 'replay', '--student', String(s)], env);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout.split('\n').filter((l) => l.startsWith('drift:'))).toEqual([
      `drift: student ${s} 2026-2027 monitoring trend: decision derived "above_goal" stored "below_goal"`,
    ]);
    const rebuild = await runCliInProcess(['projections', 'rebuild', 'decisions_monitoring'], env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const after = await runCliInProcess(['decisions', 'replay', '--student', String(s)], env);
    expect(after.code, after.stdout).toBe(0);
  }, 120_000); // four CLI processes, each a cold start
});
