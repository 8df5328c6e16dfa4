import { client, useTestWorld } from '@qiraa/app/testing';
import { startSitting } from '@qiraa/assessment/testing';
import { recomputeSkillStatus } from '@qiraa/decisions';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

const { t, w } = useTestWorld();
let env: NodeJS.ProcessEnv;
const decided: number[] = [];

/** Two students with a fixture sitting each, decided the way the inline path decides them. */
beforeAll(async () => {
  env = { DATABASE_URL: t.db.url };
  for (let i = 0; i < 2; i++) {
    const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'سلمى' });
    expect(res.statusCode, res.body).toBe(201);
    const studentId = res.json().studentId as number;
    const s = await startSitting(t.runtime, {
      organizationId: w.a.id,
      schoolId: w.a.schoolId,
      classId: w.a.classId,
      studentId,
    });
    for (const p of [0, 1, 2]) await s.answer(p);
    await s.complete();
    await recomputeSkillStatus(t.runtime, studentId);
    decided.push(studentId);
  }
}, 120_000);

// One real process (the first run); the rest run the same program in this process (runCliInProcess.ts),
// a second of CPU less each.
describe('qiraa decisions replay', () => {
  it('exits 0 with a summary when nothing drifted', async () => {
    const all = await runCli(['decisions', 'replay', '--all'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/students checked: \d+\nwith drift: 0\ndrifting keys: 0\n/);
    expect(all.stdout).not.toMatch(/^drift:/m);
    const one = await runCliInProcess(['decisions', 'replay', '--student', String(decided[0])], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('students checked: 1\nwith drift: 0\n');
  }, 120_000);

  it('refuses bad usage with exit code 2, and an unknown student (a failure, not a usage error) with exit code 1', async () => {
    expect((await runCliInProcess(['decisions', 'replay'], env)).code).toBe(2);
    expect((await runCliInProcess(['decisions', 'replay', '--all', '--student', '1'], env)).code).toBe(2);
    expect((await runCliInProcess(['decisions', 'replay', '--student', 'x'], env)).code).toBe(2);
    const unknown = await runCliInProcess(['decisions', 'replay', '--student', '987654321'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no student 987654321/);
  }, 120_000);

  it('exits 1 with one line for exactly the changed key; a rebuild of the projection clears it', async () => {
    const [tampered, untouched] = decided as [number, number];
    await t.db.sql`
      update dec_skill_status set status = 'developing', ssr_rule_id = 'SSR-02'
      where student_id = ${tampered} and sub_skill_id = 'fixture_sub_skill'`;
    const one = await runCliInProcess(['decisions', 'replay', '--student', String(tampered)], env);
    expect(one.code).toBe(1);
    expect(one.stdout.split('\n').filter((l) => l.startsWith('drift:'))).toEqual([
      `drift: student ${tampered} 2026-2027 BOY fixture_sub_skill: status derived "strong" stored "developing"; ` +
        'ssrRuleId derived "SSR-01" stored "SSR-02"',
    ]);
    expect((await runCliInProcess(['decisions', 'replay', '--student', String(untouched)], env)).code).toBe(0);
    const all = await runCliInProcess(['decisions', 'replay', '--all'], env);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('with drift: 1\ndrifting keys: 1\n');

    const rebuild = await runCliInProcess(['projections', 'rebuild', 'decisions_skill_status'], env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const after = await runCliInProcess(['decisions', 'replay', '--all'], env);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain('with drift: 0\n');
  }, 180_000);

  it('reports a profile changed behind the service; a rebuild of decisions_profiles clears it', async () => {
    const [tampered] = decided as [number];
    await t.db.sql`
      update dec_profiles set profile_code = 'PR2-01', profile_name = 'ON_TRACK', do_not_decide_yet = false
      where student_id = ${tampered}`;
    const one = await runCliInProcess(['decisions', 'replay', '--student', String(tampered)], env);
    expect(one.code).toBe(1);
    expect(one.stdout.split('\n').filter((l) => l.startsWith('drift:'))).toEqual([
      `drift: student ${tampered} 2026-2027 BOY profile: profileCode derived "PR2-00" stored "PR2-01"; ` +
        'profileName derived "DATA_INCOMPLETE" stored "ON_TRACK"; doNotDecideYet derived true stored false',
    ]);
    const rebuild = await runCliInProcess(['projections', 'rebuild', 'decisions_profiles'], env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    expect((await runCliInProcess(['decisions', 'replay', '--student', String(tampered)], env)).code).toBe(0);
  }, 180_000);
});
