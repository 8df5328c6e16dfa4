import { writeFile } from 'node:fs/promises';
import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms, setWindows } from '@qiraa/assessment/testing';
import { pdfPagePng, pdfText } from '@qiraa/pdf-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { STATUS_PHRASES } from '../engine/statusPhrases';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;

const exportRows = () =>
  t.db.sql<{ actor_user_id: string; target_student_id: string; organization_id: string }[]>`
    select actor_user_id::text, target_student_id::text, organization_id from audit_log where event_type = 'export_pdf'`;
const pdf = (token: string, childId = w.a.studentId) => client(t.app, token).post(`/api/parent/pdf/${childId}`);

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  const [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
  await t.db.sql`update users set gender = 'male' where id = ${w.a.studentId}`;
  await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
  const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const stopped = await teacher.post(`/api/orf/assessments/${started.json().id}/stop`, {
    lastWordIndex: 19,
    elapsedSeconds: 60,
  });
  expect(stopped.statusCode, stopped.body).toBe(200);
}, 120_000);

describe('POST /api/parent/pdf/{childId}', () => {
  it('gives the linked parent an A4 right-to-left PDF, text-extractable and number-free; writes nothing', async () => {
    const res = await pdf(w.a.parentToken);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('تقرير النموّ في القراءة'.normalize('NFC').slice(0, 5));
    expect(text).toContain('سارة');
    expect(text).toContain(STATUS_PHRASES.developing.split(' ')[0]!);
    expect(text).not.toMatch(/[0-9\u0660-\u0669\u06f0-\u06f9%\u066a]/);
    expect(await exportRows()).toEqual([]);
    await writeFile('/tmp/parent-report.pdf', res.rawPayload);
    await writeFile('/tmp/parent-report.png', await pdfPagePng(res.rawPayload, 1, 110));
  });

  it('gives the administrator the PDF and writes nothing', async () => {
    expect((await pdf(w.a.adminToken)).statusCode).toBe(200);
    expect(await exportRows()).toEqual([]);
  });

  it('gives the child’s class teacher the PDF after one export_pdf data-access row', async () => {
    const res = await pdf(w.a.teacherToken);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(await exportRows()).toEqual([
      { actor_user_id: String(w.a.teacherId), target_student_id: String(w.a.studentId), organization_id: w.a.id },
    ]);
  });

  it('refuses another teacher, the principal, the manager and the student (403); another organization’s child 404', async () => {
    for (const token of [w.a.otherTeacherToken, w.a.principalToken, w.a.managerToken, w.a.studentToken]) {
      const res = await pdf(token);
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await pdf(w.a.teacherToken, w.b.studentId)).statusCode).toBe(404);
    expect((await pdf(w.a.parentToken, w.b.studentId)).statusCode).toBe(404);
    expect((await pdf(w.a.parentToken, 999_999)).statusCode).toBe(404);
    expect(await exportRows()).toHaveLength(1);
  });

  it('answers a teacher 500 with no PDF when the data-access row cannot be written', async () => {
    await t.db.sql.unsafe(`
      create function refuse_export_pdf() returns trigger language plpgsql as $$
      begin
        if new.event_type = 'AuditRecorded' and new.data->>'eventType' = 'export_pdf' then
          raise exception 'data-access log refused (test)';
        end if;
        return new;
      end $$;
      create trigger refuse_export_pdf before insert on es_events for each row execute function refuse_export_pdf();`);
    try {
      const res = await pdf(w.a.teacherToken);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json().code).toBe('INTERNAL');
      expect(res.body).not.toContain('%PDF');
      expect(await exportRows()).toHaveLength(1);
      // A parent's export writes nothing, so it is not affected.
      expect((await pdf(w.a.parentToken)).statusCode).toBe(200);
    } finally {
      await t.db.sql.unsafe('drop trigger refuse_export_pdf on es_events; drop function refuse_export_pdf();');
    }
  });

  it('writes one row per export when the class teacher prints in parallel', async () => {
    const before = (await exportRows()).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => pdf(w.a.teacherToken)));
    for (const res of answers) expect(res.statusCode).toBe(200);
    expect(await exportRows()).toHaveLength(before + 5);
  });
});
