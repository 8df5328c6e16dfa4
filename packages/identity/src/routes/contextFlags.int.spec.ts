import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';

/** Context flags: closed codes, the blocked list 403 CONTEXT_FLAG_BLOCKED, no free text (docs/identity.md). */
const { t, w } = useTestWorld();
const url = () => `/api/students/${w.a.studentId}/context-flags`;
const stored = async () =>
  (
    await t.db.sql<{ code: string }[]>`
      select code from student_context_flags where student_id = ${w.a.studentId} order by code`
  ).map((r) => r.code);

describe('context flags', () => {
  it('the child’s teacher selects closed codes; the set is read back with labels', async () => {
    const teacher = client(t.app, w.a.teacherToken);
    const put = await teacher.put(url(), { flags: ['new_to_school', 'extended_absence'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({
      studentId: w.a.studentId,
      flags: [
        { code: 'extended_absence', labelAr: 'غاب عن المدرسة مدة طويلة مؤخرًا', setAt: expect.any(String) },
        { code: 'new_to_school', labelAr: 'انضمّ إلى المدرسة هذا العام', setAt: expect.any(String) },
      ],
    });
    expect((await teacher.get(url())).json()).toEqual(put.json());
  });

  it('a flag on the blocked list is 403 CONTEXT_FLAG_BLOCKED and nothing is written', async () => {
    const before = await stored();
    const res = await client(t.app, w.a.teacherToken).put(url(), {
      flags: ['new_to_school', 'learning_disability_suspected'],
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({
      code: 'CONTEXT_FLAG_BLOCKED',
      message: expect.any(String),
      details: [{ field: 'flags/1', issue: 'is on the blocked list' }],
    });
    expect(await stored()).toEqual(before);
  });

  it('free text is refused: a note key 400 UNKNOWN_FIELD, a sentence or an unknown code 422; nothing written', async () => {
    const teacher = client(t.app, w.a.teacherToken);
    const before = await stored();
    const note = await teacher.put(url(), { flags: [], note: 'الطفل يحتاج متابعة' });
    expect([note.statusCode, note.json().code]).toEqual([400, 'UNKNOWN_FIELD']);
    const sentence = await teacher.put(url(), { flags: ['الطفل كسول'] });
    expect([sentence.statusCode, sentence.json().code]).toEqual([422, 'VALIDATION_ERROR']);
    const unknown = await teacher.put(url(), { flags: ['lazy'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'flags/0', issue: 'is not a context flag' }],
    });
    expect(await stored()).toEqual(before);
  });

  it('a code blocked later is refused when selected again and no longer shown', async () => {
    await t.db.sql`update student_context_flag_codes set blocked = true where code = 'extended_absence'`;
    try {
      const teacher = client(t.app, w.a.teacherToken);
      expect((await teacher.get(url())).json().flags.map((f: { code: string }) => f.code)).toEqual(['new_to_school']);
      const again = await teacher.put(url(), { flags: ['extended_absence'] });
      expect([again.statusCode, again.json().code]).toEqual([403, 'CONTEXT_FLAG_BLOCKED']);
    } finally {
      await t.db.sql`update student_context_flag_codes set blocked = false where code = 'extended_absence'`;
    }
  });
});
