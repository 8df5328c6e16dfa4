import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms, openWindowFor, setWindows } from '@qiraa/assessment/testing';
import { reloadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { HALT_MESSAGES } from '../engine/haltLabels';
import { STATUS_PHRASES } from '../engine/statusPhrases';
import { TRAJECTORY_LABELS } from '../engine/trajectoryLabels';
import { CURRENT_TEMPLATE_LIBRARY } from '../rules/templateLibrary';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let parent: Client;
let teacher: Client;
let passageId: string;
let unlinkedId: number;

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  parent = client(t.app, w.a.parentToken);
  teacher = client(t.app, w.a.teacherToken);
  const other = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr: 'ليلى منصور',
    classId: w.a.classId,
    quickCode: '33',
  });
  expect(other.statusCode, other.body).toBe(201);
  unlinkedId = other.json().id;
}, 120_000);

/** An oral reading of the grade-2 passage through the teacher's routes: `words` read in 60 s, no error. */
async function oralReading(studentId: number, words: number) {
  const started = await teacher.post('/api/orf/assessments', { studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const stopped = await teacher.post(`/api/orf/assessments/${started.json().id}/stop`, {
    lastWordIndex: words - 1,
    elapsedSeconds: 60,
  });
  expect(stopped.statusCode, stopped.body).toBe(200);
}

/** The window's digital diagnostic through the student's routes, every answer right. */
async function digitalSitting(token: string, path = '/api/diagnostic-sessions/start') {
  const as = client(t.app, token);
  const start = await as.post(path, {});
  expect(start.statusCode, start.body).toBe(200);
  const { sittingId, firstItemId } = start.json();
  let itemId: string | null = firstItemId;
  while (itemId) {
    const [{ k }] = (await t.db.sql`
      select correct_option_key as k from content_items where id = ${itemId}`) as unknown as [{ k: string }];
    const res = await as.post(`/api/diagnostic-sessions/${sittingId}/answers`, { itemId, answer: k });
    expect(res.statusCode, res.body).toBe(200);
    itemId = res.json().item?.id ?? null;
  }
}

const childPaths = (id: number) => [
  `/api/parent/children/${id}/diagnostics`,
  `/api/parent/children/${id}/growth`,
  `/api/parent/children/${id}/recommendations`,
];

describe('parent portal: gate and tenant rule', () => {
  it('lists the linked children of the token’s parent: first name, grade and school in words, last active', async () => {
    const res = await parent.get('/api/parent/children');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      {
        childId: w.a.studentId,
        firstName: 'سارة',
        gradeLabel: 'الصف الثاني',
        schoolName: 'مدرسة الأمل',
        lastActiveAt: null,
      },
    ]);
    // An administrator holds RUN_BACKOFFICE and has no linked child: [] is valid.
    expect((await client(t.app, w.a.adminToken).get('/api/parent/children')).json()).toEqual([]);
  });

  it('refuses teacher, principal, manager and student tokens with 403 on every portal route', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken, w.a.studentToken]) {
      for (const path of ['/api/parent/children', ...childPaths(w.a.studentId)]) {
        const res = await client(t.app, token).get(path);
        expect(res.statusCode, `${path} ${res.body}`).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
  });

  it('answers 404 for another organization’s or an unknown child, 403 for an unlinked one, 200 for the linked one', async () => {
    for (const path of childPaths(w.b.studentId)) expect((await parent.get(path)).statusCode).toBe(404);
    for (const path of childPaths(999_999)) expect((await parent.get(path)).statusCode).toBe(404);
    for (const path of childPaths(unlinkedId)) {
      const res = await parent.get(path);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
    for (const path of childPaths(w.a.studentId)) expect((await parent.get(path)).statusCode).toBe(200);
    // A teacher asking for another organization's child learns nothing more than that it is not there.
    expect((await teacher.get(childPaths(w.b.studentId)[0]!)).statusCode).toBe(404);
    // The organization's administrator sees what a parent would (RUN_BACKOFFICE), any child of the organization.
    expect((await client(t.app, w.a.adminToken).get(childPaths(unlinkedId)[1]!)).statusCode).toBe(200);
  });
});

describe('parent portal: reads', () => {
  it('halts recommendations with the safe Arabic message and GL-005 in the body and the header while nothing is decided', async () => {
    const res = await parent.get(`/api/parent/children/${w.a.studentId}/recommendations`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-qiraa-safe-stop']).toBe('GL-005');
    expect(res.json()).toEqual({
      firstName: 'سارة',
      windowLabel: 'بداية العام',
      halted: true,
      code: 'GL-005',
      haltMessage: HALT_MESSAGES.neutral,
      suggestions: [],
    });
    // The code is a machine key of its own field: no text a parent reads carries it.
    expect(res.json().haltMessage).not.toContain('GL-005');
    expect((await parent.get(`/api/parent/children/${w.a.studentId}/growth`)).json()).toEqual({
      firstName: 'سارة',
      domains: [],
      measures: [],
    });
  });

  it('shows growth across BOY and MOY as phrases, and suggestions in the child’s gender', async () => {
    await t.db.sql`update users set gender = 'female' where id = ${w.a.studentId}`;
    await openWindowFor(t.db.sql, w.a.id, YEAR, 'BOY');
    // The window's diagnostic and two re-diagnostics: pooled, enough comprehension items to decide (ADR-01).
    await digitalSitting(w.a.studentToken);
    await digitalSitting(w.a.studentToken, '/api/diagnostic-sessions/start/re-diagnostic');
    await digitalSitting(w.a.studentToken, '/api/diagnostic-sessions/start/re-diagnostic');
    await oralReading(w.a.studentId, 20); // BOY developing (grade 2 cut: 15 wcpm)
    await setWindows(t.db.sql, w.a.id, YEAR, 'MOY');
    await oralReading(w.a.studentId, 40); // MOY on_track (35 wcpm)

    const growth = await parent.get(`/api/parent/children/${w.a.studentId}/growth`);
    expect(growth.statusCode, growth.body).toBe(200);
    const body = growth.json();
    expect(body.firstName).toBe('سارة');
    const byLabel = new Map(body.domains.map((d: { labelAr: string }) => [d.labelAr, d]));
    // Fluency was read in both windows: developing, then on track.
    expect(byLabel.get('الطلاقة القرائية')).toEqual({
      labelAr: 'الطلاقة القرائية',
      trajectoryLabel: TRAJECTORY_LABELS.growing,
      windows: [
        { windowLabel: 'بداية العام', statusLabel: STATUS_PHRASES.developing },
        { windowLabel: 'منتصف العام', statusLabel: STATUS_PHRASES.on_track },
      ],
    });
    // The diagnostic's domains were screened in BOY only: a first look.
    expect(byLabel.get('الفهم القرائي')).toMatchObject({ trajectoryLabel: TRAJECTORY_LABELS.first_look });
    expect(body.measures).toEqual([{ labelAr: 'قراءة نص متصل', statusLabel: STATUS_PHRASES.on_track }]);

    // BOY's profile is complete: one suggestion per decided domain, earliest status first, in the girl's form.
    const boy = await parent.get(`/api/parent/children/${w.a.studentId}/recommendations`);
    expect(boy.statusCode, boy.body).toBe(200);
    expect(boy.headers['x-qiraa-safe-stop']).toBeUndefined();
    const suggestions = boy.json().suggestions as { areaLabel: string; text: string }[];
    expect(boy.json()).toMatchObject({ halted: false, code: null, haltMessage: null, windowLabel: 'بداية العام' });
    expect(suggestions.length).toBeGreaterThan(1);
    expect(suggestions.length).toBeLessThanOrEqual(5);
    const fluencyBuild = CURRENT_TEMPLATE_LIBRARY.templates.find((x) => x.id === 'HT-FLU-01')!;
    expect(suggestions).toContainEqual({ areaLabel: 'الطلاقة القرائية', text: fluencyBuild.text.female });
    const female = new Set(CURRENT_TEMPLATE_LIBRARY.templates.map((x) => x.text.female));
    for (const s of suggestions) expect(female.has(s.text), s.text).toBe(true);
    // MOY holds a reading only, so its profile is the guard (DATA_INCOMPLETE): the halt, in the girl's form.
    const moy = await parent.get(`/api/parent/children/${w.a.studentId}/recommendations?window=MOY`);
    expect(moy.headers['x-qiraa-safe-stop']).toBe('GL-005');
    expect(moy.json()).toMatchObject({
      halted: true,
      code: 'GL-005',
      haltMessage: HALT_MESSAGES.female,
      windowLabel: 'منتصف العام',
    });
    // EOY: nothing screened yet, the halt.
    const eoy = await parent.get(`/api/parent/children/${w.a.studentId}/recommendations?window=EOY`);
    expect(eoy.json()).toMatchObject({ halted: true, haltMessage: HALT_MESSAGES.female, windowLabel: 'نهاية العام' });

    const diagnostics = (await parent.get(`/api/parent/children/${w.a.studentId}/diagnostics`)).json();
    expect(diagnostics.entries).toHaveLength(3);
    for (const entry of diagnostics.entries) {
      expect(entry.windowLabel).toBe('بداية العام');
      expect(Object.values(STATUS_PHRASES)).toContain(entry.statusLabel);
    }
    const children = (await parent.get('/api/parent/children')).json();
    expect(children[0].lastActiveAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses a window outside BOY, MOY, EOY with 400', async () => {
    const res = await parent.get(`/api/parent/children/${w.a.studentId}/recommendations?window=XOY`);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('parent portal: language rule set unavailable', () => {
  it('answers 503 on every portal route, then recovers', async () => {
    await t.db.sql`alter table language_safety_rules rename to language_safety_rules_gone`;
    try {
      await expect(reloadLanguageSafety(t.runtime.sql)).rejects.toThrow();
      for (const path of ['/api/parent/children', ...childPaths(w.a.studentId)]) {
        const res = await parent.get(path);
        expect(res.statusCode, path).toBe(503);
        expect(res.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      }
      const pdf = await parent.post(`/api/parent/pdf/${w.a.studentId}`);
      expect(pdf.statusCode).toBe(503);
    } finally {
      await t.db.sql`alter table language_safety_rules_gone rename to language_safety_rules`;
    }
    await reloadLanguageSafety(t.runtime.sql);
    expect((await parent.get('/api/parent/children')).statusCode).toBe(200);
  });
});
