import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { ALERT_PAGE_MAX } from '../queries/alertCursor';

const { t, w } = useTestWorld();

/** Alerts of one child of the teacher's class, some raised in the same millisecond (microseconds apart) or instant. */
async function seedAlerts(): Promise<string[]> {
  const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'ليلى' });
  expect(res.statusCode, res.body).toBe(201);
  const studentId = res.json().studentId as number;
  const instants = [
    '2026-10-01 08:00:00.123456+00',
    '2026-10-01 08:00:00.123400+00',
    '2026-10-01 08:00:00.123400+00',
    '2026-10-01 08:00:00.123400+00',
    '2026-10-02 09:30:00+00',
    '2026-10-03 10:00:00.5+00',
    '2026-10-03 10:00:00.5+00',
  ];
  for (const raisedAt of instants) {
    await t.db.sql`
      insert into trn_alerts (alert_id, organization_id, student_id, skill_id, measure_code, level_number, kind,
        rule_id, rule_set_version, level_event_id, evidence, status, raised_at, stream_version)
      values (${randomUUID()}, ${w.a.id}, ${studentId}, 'familiar_word_reading', 'word_recognition', 2,
        'no_progress_at_level', 'TAL-01', 'alerts-v1', ${randomUUID()}, ${t.db.sql.json({ sessions: [], daysAtLevel: 3 })},
        'open', ${raisedAt}::timestamptz, 1)`;
  }
  const rows = await t.db.sql<{ alert_id: string }[]>`
    select alert_id from trn_alerts where student_id = ${studentId} order by raised_at desc, alert_id desc`;
  return rows.map((r) => r.alert_id);
}

const list = (query: string) =>
  client(t.app, w.a.teacherToken).get(`/api/training/alerts?classId=${w.a.classId}&${query}`);

describe('GET /api/training/alerts pages', () => {
  it('walks every alert once, newest first, with an opaque nextCursor (null on the last page)', async () => {
    const expected = await seedAlerts();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { items: { alertId: string }[]; nextCursor: string | null };
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...body.items.map((a) => a.alertId));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
    const all = await list('');
    expect(all.json().nextCursor).toBeNull();
    expect(all.json().items.map((a: { alertId: string }) => a.alertId)).toEqual(expected);
  });

  it(`refuses a page over ${ALERT_PAGE_MAX} and a cursor it did not issue with 422`, async () => {
    expect((await list(`limit=${ALERT_PAGE_MAX + 1}`)).statusCode).toBe(422);
    for (const cursor of ['garbage', Buffer.from('["alerts","x","y"]').toString('base64url')]) {
      const res = await list(`cursor=${cursor}`);
      expect(res.statusCode, cursor).toBe(422);
      expect(res.json().reason).toBe('invalid_cursor');
    }
  });
});
