import { client, useTestWorld } from '@qiraa/app/testing';
import type { GenderForm, StudentGender } from '@qiraa/identity';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, type NotificationKind } from '../schemas/notificationKinds';
import { SAMPLE_PAYLOADS } from '../schemas/samplePayloads';
import { dispatchToStudent, lookupKind, renderKind } from './dispatch';

const { t, w } = useTestWorld();
const FORMS: Record<GenderForm, StudentGender | null> = { male: 'male', female: 'female', neutral: null };

/** A child of org A's main class with the given gender (absent = unknown), linked to org A's parent. */
async function child(fullNameAr: string, gender?: StudentGender): Promise<number> {
  const created = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr,
    classId: w.a.classId,
    ...(gender ? { gender } : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  const linked = await client(t.app, w.superToken).post(`/api/students/${created.json().id}/parents`, {
    parentUserId: w.a.parentId,
  });
  expect(linked.statusCode, linked.body).toBe(201);
  return created.json().id;
}

const about = (kind: NotificationKind, studentId: number, studentName: string) => {
  const payload = { ...(SAMPLE_PAYLOADS[kind] as Record<string, unknown>), studentId: String(studentId), studentName };
  if ('classId' in payload) payload['classId'] = w.a.classId;
  return payload;
};

describe('templates in three gender forms', () => {
  it.each(NOTIFICATION_KINDS)('%s renders masculine, feminine and neutral, each passing both tiers', async (kind) => {
    const filter = await loadLanguageSafety(t.db.sql);
    const catalog = await lookupKind(t.db.sql, kind);
    const payload = SAMPLE_PAYLOADS[kind] as Record<string, unknown>;
    const rendered = Object.fromEntries(
      Object.entries(FORMS).map(([form, gender]) => [form, renderKind(catalog, payload, gender)]),
    ) as Record<GenderForm, { titleAr: string; bodyAr: string }>;
    for (const { titleAr, bodyAr } of Object.values(rendered)) {
      for (const text of [titleAr, bodyAr]) {
        expect(text).not.toMatch(/\{\{|\}\}|\//);
        expect(filter.check(text, 'general'), text).toEqual({ kind: 'pass' });
        expect(filter.check(text, 'parent'), text).toEqual({ kind: 'pass' });
      }
    }
    // A kind either agrees with every child in one wording, or has three distinct ones.
    const bodies = new Set(Object.values(rendered).map((r) => r.bodyAr));
    expect([1, 3]).toContain(bodies.size);
  });

  it('addresses each child by their gender, the neutral form when unknown', async () => {
    const catalog = await lookupKind(t.db.sql, 'parent_tsp_activation');
    const payload = SAMPLE_PAYLOADS.parent_tsp_activation;
    expect(renderKind(catalog, payload, 'female').bodyAr).toContain('مع ابنتكم سارة');
    expect(renderKind(catalog, payload, 'male').bodyAr).toContain('مع ابنكم سارة');
    expect(renderKind(catalog, payload, null).bodyAr).toContain('مع طفلكم سارة');
    const assigned = await lookupKind(t.db.sql, 'student_alert_assigned');
    expect(renderKind(assigned, payload, 'female').bodyAr).toContain('لمساندتها في رحلتها القرائية');
    expect(renderKind(assigned, payload, 'male').bodyAr).toContain('لمساندته في رحلته القرائية');
    expect(renderKind(assigned, payload, null).bodyAr).not.toMatch(/لمساندته|لمساندتها/);
  });
});

describe('dispatch resolves the child’s gender from payload.studentId', () => {
  let hala: number;
  let omar: number;
  let noor: number;
  beforeAll(async () => {
    hala = await child('هالة', 'female');
    omar = await child('عمر', 'male');
    noor = await child('نور');
  });

  const newestFor = async (token: string, kind: NotificationKind) =>
    (await client(t.app, token).get(`/api/notifications?kind=${kind}&limit=1`)).json().items[0] as {
      renderedTitleAr: string;
      renderedBodyAr: string;
    };

  it('a feminine child gets the feminine text end to end (parent and teachers)', async () => {
    const toParent = await dispatchToStudent(t.runtime.deps, hala, {
      kind: 'parent_tsp_activation',
      payload: about('parent_tsp_activation', hala, 'هالة'),
    });
    expect(toParent.outcome).toBe('fanned_out');
    const parentRow = await newestFor(w.a.parentToken, 'parent_tsp_activation');
    expect(parentRow.renderedBodyAr).toBe(
      'يسعدنا إخباركم بأن فريق المدرسة بدأ خطة دعم القراءة مع ابنتكم هالة، وسنشارككم خطواتها أولًا بأول.',
    );

    await dispatchToStudent(t.runtime.deps, hala, {
      kind: 'training_no_progress',
      payload: about('training_no_progress', hala, 'هالة'),
    });
    const teacherRow = await newestFor(w.a.teacherToken, 'training_no_progress');
    expect(teacherRow.renderedBodyAr).toBe(
      'تواصل هالة التدريب على دمج الأصوات في مستوى النموّ منذ مدة؛ قد تساعدها خطوة دعم جديدة على الانتقال.',
    );
  });

  it('a masculine child the masculine text, a child of unknown gender the neutral one', async () => {
    await dispatchToStudent(t.runtime.deps, omar, {
      kind: 'parent_tsp_activation',
      payload: about('parent_tsp_activation', omar, 'عمر'),
    });
    expect((await newestFor(w.a.parentToken, 'parent_tsp_activation')).renderedBodyAr).toContain('مع ابنكم عمر');
    await dispatchToStudent(t.runtime.deps, noor, {
      kind: 'parent_tsp_activation',
      payload: about('parent_tsp_activation', noor, 'نور'),
    });
    expect((await newestFor(w.a.parentToken, 'parent_tsp_activation')).renderedBodyAr).toContain('مع طفلكم نور');
    await dispatchToStudent(t.runtime.deps, noor, {
      kind: 'training_no_progress',
      payload: about('training_no_progress', noor, 'نور'),
    });
    expect((await newestFor(w.a.teacherToken, 'training_no_progress')).renderedBodyAr).toBe(
      'مضت مدة على تدريب نور على دمج الأصوات في مستوى النموّ؛ قد تفتح خطوة دعم جديدة الطريق إلى الانتقال.',
    );
  });
});
