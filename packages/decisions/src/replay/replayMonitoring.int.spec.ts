import { client, useTestWorld } from '@qiraa/app/testing';
import { setWindows } from '@qiraa/assessment/testing';
import { rebuildProjection } from '@qiraa/projections';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSkillStatus } from '../commands/recomputeSkillStatus';
import { monitoringProjection } from '../projections/monitoringProjection';
import { recordOrfProbe } from '../testing/orfProbeFixture';

const { t, w } = useTestWorld();
const DAY = 86_400_000;
let s: number;

/** A student whose fifth weekly probe fell sharply: a trend safe stop (five probes) and an open acute alert. */
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
  for (const [i, words] of [25, 27, 29, 31, 15].entries()) {
    await recordOrfProbe(t.runtime, place, new Date(Date.now() - (42 - 7 * i) * DAY), words);
    await recomputeSkillStatus(t.runtime, s);
  }
}, 120_000);

const replay = async () => {
  const res = await client(t.app, w.superToken).post('/api/admin/decisions/replay', { studentId: s });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('decisions replay: progress monitoring', () => {
  it('derives the trend and the alerts again: no drift on a clean student', async () => {
    const body = await replay();
    expect(body.hasDrift).toBe(false);
    expect(body.monitoring.trends).toEqual([
      expect.objectContaining({
        academicYear: '2026-2027',
        drift: [],
        derived: expect.objectContaining({ holdReason: 'too_few_probes', ruleId: 'PMR-09' }),
      }),
    ]);
    expect(body.monitoring.trends[0].derived).toEqual(body.monitoring.trends[0].stored);
    expect(body.monitoring.alerts).toEqual([
      expect.objectContaining({
        drift: [],
        derived: expect.objectContaining({ alertKind: 'acute_regression', status: 'open' }),
      }),
    ]);
  });

  it('rows changed behind the service drift on exactly those fields; a rebuild of decisions_monitoring clears it', async () => {
    await t.db.sql`update dec_trends set hold_reason = 'no_goal' where student_id = ${s}`;
    await t.db.sql`update dec_alerts set status = 'closed', close_reason = 'recovered' where student_id = ${s}`;
    const drifted = await replay();
    expect(drifted.hasDrift).toBe(true);
    expect(drifted.keys.every((k: { drift: string[] }) => k.drift.length === 0)).toBe(true);
    expect(drifted.monitoring.trends[0].drift).toEqual(['holdReason']);
    expect(drifted.monitoring.alerts[0].drift).toEqual(['status', 'closeReason']);
    // A deleted trend row: every field drifts.
    await t.db.sql`delete from dec_trends where student_id = ${s}`;
    expect((await replay()).monitoring.trends[0]).toMatchObject({
      stored: null,
      drift: expect.arrayContaining(['decision']),
    });

    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, monitoringProjection);
    expect((await replay()).hasDrift).toBe(false);
  });
});
