import { writeFile } from 'node:fs/promises';
import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoFiles, importDemoScreeningForms, openWindowFor, setWindows } from '@qiraa/assessment/testing';
import { dispatchToStudent } from '@qiraa/notifications';
import { pdfPagePng, pdfText } from '@qiraa/pdf-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The child-safety proof (docs/parent-portal.md, "The proof"): a family with a full year of evidence (BOY, MOY and
 * EOY readings, a BOY digital diagnostic and word-list reads, a voided and re-read reading), then every portal
 * response, the PDF's extracted text and the parent's inbox are scanned: no digit (ASCII, Arabic-Indic, extended),
 * no % or ٪, no Latin letter at all (so no status token, rule id, profile code, snake_case or camelCase token,
 * uuid or prefixed id). The only non-label leaves a response may hold are named here, each checked for its shape.
 */

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
let teacher: Client;
let parent: Client;
let passageId: string;

const FORBIDDEN = /[0-9\u0660-\u0669\u06f0-\u06f9%\u066a\u2030A-Za-z]/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Keys that are not text a parent reads, with the one shape each may take. */
const MACHINE_LEAVES: Record<string, (v: unknown) => boolean> = {
  childId: (v) => v === w.a.studentId, // the portal paths' address of the child, in the child list only
  lastActiveAt: (v) => v === null || (typeof v === 'string' && ISO_TIME.test(v)),
  completedOn: (v) => typeof v === 'string' && ISO_DATE.test(v),
  halted: (v) => typeof v === 'boolean',
  code: (v) => v === null || v === 'GL-005', // the safe halt's machine key (spec error table), never shown
  haltMessage: (v) => v === null || (typeof v === 'string' && !FORBIDDEN.test(v)),
};
/** The inbox envelope's machine fields (the notification's address and state, not text). */
const INBOX_MACHINE: Record<string, (v: unknown) => boolean> = {
  id: (v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v),
  kind: (v) => v === 'parent_tsp_activation',
  severity: (v) => v === 'info',
  deliveryState: (v) => v === 'delivered_in_app' || v === 'read',
  createdAt: (v) => typeof v === 'string' && ISO_TIME.test(v),
  readAt: (v) => v === null || (typeof v === 'string' && ISO_TIME.test(v)),
  dismissedAt: (v) => v === null,
};

/** Every leaf of `value`: text must be clean, machine leaves must have their shape; returns the texts seen. */
function scan(value: unknown, machine: Record<string, (v: unknown) => boolean>, where: string): string[] {
  const texts: string[] = [];
  const walk = (v: unknown, path: string, key: string | null) => {
    if (key !== null && key in machine) {
      expect(machine[key]!(v), `${where}${path}: ${JSON.stringify(v)}`).toBe(true);
      if (typeof v === 'string' && key === 'haltMessage') texts.push(v);
      return;
    }
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(item, `${path}/${i}`, null);
      return;
    }
    if (v !== null && typeof v === 'object') {
      for (const [k, c] of Object.entries(v)) walk(c, `${path}/${k}`, k);
      return;
    }
    expect(typeof v, `${where}${path} is not text: ${JSON.stringify(v)}`).toBe('string');
    expect((v as string).match(FORBIDDEN), `${where}${path}: ${v}`).toBeNull();
    texts.push(v as string);
  };
  walk(value, '', null);
  return texts;
}

async function oralReading(words: number, errorAt: readonly number[] = [], elapsedSeconds = 60) {
  const started = await teacher.post('/api/orf/assessments', { studentId: w.a.studentId, passageId });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id as string;
  for (const wordIndex of errorAt) {
    const marked = await teacher.post(`/api/orf/assessments/${id}/mark`, { wordIndex, mark: 'error' });
    expect(marked.statusCode, marked.body).toBe(200);
  }
  const stopped = await teacher.post(`/api/orf/assessments/${id}/stop`, { lastWordIndex: words - 1, elapsedSeconds });
  expect(stopped.statusCode, stopped.body).toBe(200);
  return id;
}

async function digitalSitting(path = '/api/diagnostic-sessions/start') {
  const as = client(t.app, w.a.studentToken);
  const start = await as.post(path, {});
  expect(start.statusCode, start.body).toBe(200);
  const { sittingId, firstItemId } = start.json();
  let itemId: string | null = firstItemId;
  for (let n = 0; itemId; n++) {
    // Right on two answers of three, so the measures land on different levels.
    const [{ k }] = (await t.db.sql`
      select case when ${n % 3 === 2} then (select o->>'key' from jsonb_array_elements(options) o
                                            where o->>'key' <> correct_option_key limit 1)
                  else correct_option_key end as k
      from content_items where id = ${itemId}`) as unknown as [{ k: string }];
    const res = await as.post(`/api/diagnostic-sessions/${sittingId}/answers`, { itemId, answer: k });
    expect(res.statusCode, res.body).toBe(200);
    itemId = res.json().item?.id ?? null;
  }
}

beforeAll(async () => {
  const sql = t.db.sql;
  await importDemoScreeningForms(sql);
  await importDemoFiles(sql, ['word-lists.json']);
  [{ id: passageId }] = (await sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  teacher = client(t.app, w.a.teacherToken);
  parent = client(t.app, w.a.parentToken);
  await sql`update users set gender = 'female' where id = ${w.a.studentId}`;

  // BOY: the digital diagnostic, an oral reading, both word lists.
  await openWindowFor(sql, w.a.id, YEAR, 'BOY');
  // The window's diagnostic and two re-diagnostics: pooled, enough items per sub-skill for a full profile.
  await digitalSitting();
  await digitalSitting('/api/diagnostic-sessions/start/re-diagnostic');
  await digitalSitting('/api/diagnostic-sessions/start/re-diagnostic');
  await oralReading(22, [4]);
  const list = async (externalId: string) =>
    ((await sql`select id from content_word_lists where external_id = ${externalId}`) as unknown as [{ id: string }])[0]
      .id;
  for (const [externalId, last] of [
    ['g2-fw-boy', 24],
    ['g2-pw-boy', 11],
  ] as const) {
    const read = await teacher.post('/api/word-lists/assessments', {
      studentId: w.a.studentId,
      wordListId: await list(externalId),
      errorIndices: [2],
      last_word_index: last,
      elapsed_seconds: 60,
    });
    expect(read.statusCode, read.body).toBe(201);
  }
  // MOY: a reading started by mistake and voided, then the real one.
  await setWindows(sql, w.a.id, YEAR, 'MOY');
  const mistaken = await oralReading(10);
  const voided = await teacher.post(`/api/teacher/classes/${w.a.classId}/taqyeem/void`, {
    kind: 'oral_text',
    targetId: mistaken,
    reason: 'started_by_mistake',
  });
  expect(voided.statusCode, voided.body).toBe(201);
  await oralReading(38, [3, 9]);
  // EOY: the year's last reading.
  await setWindows(sql, w.a.id, YEAR, 'EOY');
  await oralReading(40, [], 45);
  // A notification to the parent about the child (the inbox scan).
  const sent = await dispatchToStudent(t.runtime.deps, w.a.studentId, {
    kind: 'parent_tsp_activation',
    payload: { studentId: String(w.a.studentId), studentName: 'سارة', planId: 'pln_PROOF0000001' },
  });
  expect(sent.outcome).toBe('fanned_out');
}, 240_000);

describe('the child-safety proof', () => {
  it('finds no digit, percent sign, Latin token or id in any portal response of a full year', async () => {
    const texts: string[] = [];
    const get = async (path: string) => {
      const res = await parent.get(path);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      texts.push(...scan(res.json(), MACHINE_LEAVES, path));
      return res.json();
    };
    const children = await get('/api/parent/children');
    expect(children).toHaveLength(1);
    const base = `/api/parent/children/${w.a.studentId}`;
    const diagnostics = await get(`${base}/diagnostics`);
    expect(diagnostics.entries.length).toBeGreaterThan(0);
    const growth = await get(`${base}/growth`);
    // Three windows of fluency: a real trajectory, not a first look.
    const fluency = growth.domains.find((d: { labelAr: string }) => d.labelAr === 'الطلاقة القرائية');
    expect(fluency.windows).toHaveLength(3);
    expect(growth.measures.length).toBeGreaterThan(0);
    // BOY has a full profile (digital diagnostic and readings): suggestions. MOY and EOY hold readings only, so
    // their profiles are the guard (PR2-00, an anchor domain missing): the GL-005 halt, its message scanned too.
    for (const window of ['BOY', 'MOY', 'EOY']) {
      const recommendations = await get(`${base}/recommendations?window=${window}`);
      expect(recommendations.halted, window).toBe(window !== 'BOY');
      expect(recommendations.suggestions.length).toBeLessThanOrEqual(5);
      if (window === 'BOY') expect(recommendations.suggestions.length).toBeGreaterThan(1);
      else expect(recommendations.haltMessage).toBeTruthy();
    }
    expect(texts.length).toBeGreaterThan(20);
  });

  it('finds none in the PDF’s extracted text either', async () => {
    const res = await parent.post(`/api/parent/pdf/${w.a.studentId}`);
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('سارة');
    // BOY's profile is the latest active one: its suggestions, not the halt.
    expect(text).not.toContain('ما زلنا نتعرّف');
    expect(text.match(FORBIDDEN)).toBeNull();
    // For a person to look at (docs/parent-portal.md, "The parent PDF").
    await writeFile('/tmp/parent-year.png', await pdfPagePng(res.rawPayload, 1, 100));
  });

  it('finds none in the text of the parent’s inbox', async () => {
    const res = await parent.get('/api/notifications');
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) scan(item, INBOX_MACHINE, '/api/notifications');
    expect(JSON.stringify(items)).not.toContain('pln_PROOF');
  });
});
