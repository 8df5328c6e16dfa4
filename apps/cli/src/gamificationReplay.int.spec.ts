import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

const { t, w } = useTestWorld();
let env: NodeJS.ProcessEnv;
let students: number;

beforeAll(async () => {
  env = { DATABASE_URL: t.db.url };
  const engine = client(t.app, w.a.adminToken);
  for (const [i, day] of ['2026-11-01', '2026-11-02', '2026-11-03'].entries()) {
    const res = await engine.post('/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `cli-replay-${i}`,
      studentId: w.a.studentId,
      sourceKind: i === 2 ? 'bundle_completion' : 'band_progression',
      schoolDay: day,
      occurredAt: `${day}T08:00:00Z`,
      sessionId: `cli-${i}`,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const [row] = await t.db.sql`select count(*)::int as n from users where primary_persona = 'STUDENT'`;
  students = row!.n;
}, 120_000);

// The first run is a real process (its progress bar on a real stderr pipe); the rest run the same program in
// this process (runCliInProcess.ts), a second of CPU less each.
describe('qiraa gamification replay', { timeout: 180_000 }, () => {
  it('exits 0 with a summary and a progress bar when nothing drifted', async () => {
    const run = await runCli(['gamification', 'replay', '--all'], env);
    expect(run.stderr).toMatch(new RegExp(`replay \\[[█░]+\\] 100% \\| ${students}/${students} students`));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`students checked: ${students}\nwith drift: 0\n`);
    expect(run.stdout).not.toMatch(/^drift:/m);

    const one = await runCliInProcess(['gamification', 'replay', '--student', String(w.a.studentId)], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('students checked: 1\nwith drift: 0\n');
  });

  it('refuses bad usage with exit code 2, and an unknown student (a failure, not a usage error) with exit code 1', async () => {
    expect((await runCliInProcess(['gamification', 'replay'], env)).code).toBe(2);
    expect((await runCliInProcess(['gamification', 'replay', '--all', '--student', '1'], env)).code).toBe(2);
    expect((await runCliInProcess(['gamification', 'replay', '--student', 'x'], env)).code).toBe(2);
    expect((await runCliInProcess(['gamification', 'replay', '--all', '--as-of', 'yesterday'], env)).code).toBe(2);
    const unknown = await runCliInProcess(['gamification', 'replay', '--student', '987654321'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no student 987654321/);
  });

  it('exits 1 and names the key when a read-model row was changed behind the service; a rebuild clears it', async () => {
    const at = new Date(Date.now() - 1); // milliseconds, like the rows the projection writes
    const [mastery] = await t.db.sql<{ id: string }[]>`
      select id::text from gam_mastery_events where student_id = ${w.a.studentId} limit 1`;
    await t.db.sql`
      insert into gam_xp_ledger (id, event_id, student_id, mastery_event_id, kind, amount, session_id, rule_version, recorded_at)
      values (nextval('gam_xp_transaction_id_seq'), ${randomUUID()}, ${w.a.studentId}, ${mastery!.id}, 'mastery_credit', 7,
              'forged', 1, ${at})`;

    const one = await runCliInProcess(['gamification', 'replay', '--student', String(w.a.studentId)], env);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(
      new RegExp(`^drift: student ${w.a.studentId}: xpBalance derived (\\d+) stored (\\d+)$`, 'm'),
    );
    expect(one.stdout).toContain('with drift: 1\n  xpBalance: 1\n  badges: 0\n  avatarTier: 0\n');

    const all = await runCliInProcess(['gamification', 'replay', '--all'], env);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`students checked: ${students}\nwith drift: 1\n`);
    // As of before the forged row, nothing had drifted.
    const earlier = new Date(at.getTime() - 1).toISOString();
    expect((await runCliInProcess(['gamification', 'replay', '--all', '--as-of', earlier], env)).code).toBe(0);

    const rebuild = await runCliInProcess(['projections', 'rebuild', 'gamification_ledger'], env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const after = await runCliInProcess(['gamification', 'replay', '--all'], env);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain('with drift: 0\n');
  });
});
