import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { insertPassage } from '@qiraa/content/testing';
import { pdfText } from '@qiraa/pdf-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANY_DIGIT, demoPackFile, importDemoPackFiles, pdfWordRows, writeCounts } from '../testing/sheetTestKit';

const { t, w } = useTestWorld();
let teacher: Client;
let pack: { g1fw: { id: string; words: string[] }; g1text: { id: string; title: string; body: string } };

interface ListRow {
  organizationId?: string | null;
  words: string[];
  wordsPerRow?: number | null;
  status?: string;
  grade?: number;
}
let serial = 0;
/** A word list written straight into the table: the admin routes refuse a word the filter refuses. */
async function insertList(row: ListRow): Promise<string> {
  const id = `wl_sheet${String(serial++).padStart(8, '0')}`;
  const organizationId = row.organizationId ?? null;
  await t.db.sql`
    insert into content_word_lists (id, external_id, scope, organization_id, version, grade, skill_id, window_code,
                                    words, timed, duration_seconds, words_per_row, status, content_hash)
    values (${id}, ${`sheet-${id}`}, ${organizationId === null ? 'global' : 'organization'}, ${organizationId}, 1,
            ${row.grade ?? 1}, 'familiar_word_reading', 'BOY', ${t.db.sql.array(row.words, 1009)}, true, 60,
            ${row.wordsPerRow ?? null}, ${row.status ?? 'operational'}, ${`hash-${id}`})`;
  return id;
}

const sheetUrl = (id: string) => `/api/word-lists/${id}/sheet.pdf`;
const readingUrl = (classId: string, studentId: number, passageId: string) =>
  `/api/classes/${classId}/students/${studentId}/reading-sheet.pdf?passageId=${passageId}`;
/**
 * The words of a text, NFC: pdftotext gives a letter's marks back in the font's order (shadda before a
 * tanween), a canonically equivalent spelling of the same word.
 */
const words = (text: string) => text.normalize('NFC').split(/\s+/).filter(Boolean);

beforeAll(async () => {
  teacher = client(t.app, w.a.teacherToken);
  await importDemoPackFiles(t.db.sql, ['word-lists.json', 'g1-boy-screening-form.json']);
  const [list] = await t.db.sql<{ id: string; words: string[] }[]>`
    select id, words from content_word_lists where external_id = 'g1-fw-boy' and status = 'operational'`;
  const [passage] = await t.db.sql<{ id: string; title_ar: string; body_ar: string }[]>`
    select id, title_ar, body_ar from content_passages where external_id = 'g1-boy-screen-text1'`;
  pack = {
    g1fw: list!,
    g1text: { id: passage!.id, title: passage!.title_ar, body: passage!.body_ar },
  };
}, 120_000);

describe('GET /api/word-lists/{id}/sheet.pdf', () => {
  it('prints the demo pack list as an A4 PDF with both file names', async () => {
    const packList = (await demoPackFile('word-lists.json')).wordLists.find(
      (l: { external_id: string }) => l.external_id === 'g1-fw-boy',
    );
    expect(pack.g1fw.words).toEqual(packList.words);
    const res = await teacher.get(sheetUrl(pack.g1fw.id));
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="word-list-g1-fw-boy-v1\.pdf"; filename\*=UTF-8''\S+$/);
    const encoded = disposition.split("filename*=UTF-8''")[1]!;
    expect(encoded).toMatch(/^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(encoded)).toBe('ورقة كلمات - قراءة الكلمات المألوفة.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('reads the words in list order, five to a row, right to left, with no digit anywhere', async () => {
    const pdf = (await teacher.get(sheetUrl(pack.g1fw.id))).rawPayload;
    const text = await pdfText(pdf);
    expect(words(text)).toEqual(words(['قراءة الكلمات المألوفة', ...pack.g1fw.words].join(' ')));
    expect(text).not.toMatch(ANY_DIGIT);
    const rows = await pdfWordRows(pdf);
    expect(rows[0]).toEqual(['قراءة', 'الكلمات', 'المألوفة']);
    const grid = rows.slice(1);
    expect(grid.map((r) => r.length)).toEqual([5, 5, 5, 5]);
    expect(grid.flat()).toEqual(pack.g1fw.words.map((word) => word.normalize('NFC')));
  });

  it('uses the list’s own words per row, and 5 when it names none', async () => {
    const twelve = pack.g1fw.words.slice(0, 12);
    const four = await insertList({ organizationId: w.a.id, words: twelve, wordsPerRow: 4 });
    const none = await insertList({ organizationId: w.a.id, words: twelve, wordsPerRow: null });
    const rowsOf = async (id: string) => (await pdfWordRows((await teacher.get(sheetUrl(id))).rawPayload)).slice(1);
    expect((await rowsOf(four)).map((r) => r.length)).toEqual([4, 4, 4]);
    expect((await rowsOf(none)).map((r) => r.length)).toEqual([5, 5, 2]);
  });

  it('goes on to a second page for a long list, still without a number', async () => {
    const many = Array.from({ length: 80 }, (_, i) => pack.g1fw.words[i % pack.g1fw.words.length]!);
    const id = await insertList({ organizationId: w.a.id, words: many, grade: 4 });
    const pdf = (await teacher.get(sheetUrl(id))).rawPayload;
    const text = await pdfText(pdf);
    expect(text.split('\f').filter((p) => p.trim()).length).toBeGreaterThan(1);
    expect(text).not.toMatch(ANY_DIGIT);
    const title = words('قراءة الكلمات المألوفة');
    expect(words(text).filter((word) => !title.includes(word))).toEqual(many.map((word) => word.normalize('NFC')));
  });

  it('answers 422 language_safety_blocked and no PDF when a word fails the filter', async () => {
    const id = await insertList({ organizationId: w.a.id, words: ['بَيْت', 'ضَعِيف', 'قَلَم'] });
    const res = await teacher.get(sheetUrl(id));
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      reason: 'language_safety_blocked',
      details: [{ field: 'words[1]' }],
    });
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('is 404 for another organization’s, a draft or a missing list, before any 403', async () => {
    const other = await insertList({ organizationId: w.b.id, words: ['بَيْت', 'قَلَم'] });
    const draft = await insertList({ organizationId: w.a.id, words: ['بَيْت', 'قَلَم'], status: 'draft' });
    for (const token of [w.a.teacherToken, w.a.adminToken, w.a.studentToken, w.a.parentToken]) {
      for (const id of [other, draft, 'wl_AAAAAAAAAAAAAA']) {
        const res = await client(t.app, token).get(sheetUrl(id));
        expect(res.statusCode, id).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
      }
    }
    expect((await client(t.app, w.b.teacherToken).get(sheetUrl(other))).statusCode).toBe(200);
  });

  it('serves teachers and back-office adults; principals, managers, parents and students get 403', async () => {
    const own = await insertList({ organizationId: w.a.id, words: ['بَيْت', 'قَلَم'] });
    for (const id of [pack.g1fw.id, own]) {
      for (const token of [w.a.teacherToken, w.a.otherTeacherToken, w.a.adminToken, w.superToken]) {
        expect((await client(t.app, token).get(sheetUrl(id))).statusCode).toBe(200);
      }
      for (const token of [w.a.principalToken, w.a.managerToken, w.a.parentToken, w.a.studentToken]) {
        const res = await client(t.app, token).get(sheetUrl(id));
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
    expect((await client(t.app).get(sheetUrl(pack.g1fw.id))).statusCode).toBe(401);
  });

  it('writes nothing', async () => {
    const before = await writeCounts(t.db.sql);
    await Promise.all([1, 2, 3].map(() => teacher.get(sheetUrl(pack.g1fw.id))));
    expect(await writeCounts(t.db.sql)).toEqual(before);
  });
});

describe('GET /api/classes/{classId}/students/{studentId}/reading-sheet.pdf', () => {
  const own = () => readingUrl(w.a.classId, w.a.studentId, pack.g1text.id);

  it('prints the passage for the class teacher, in logical order, with the child’s first name', async () => {
    const res = await teacher.get(own());
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(
      new RegExp(
        `^attachment; filename="reading-sheet-g1-boy-screen-text1-student-${w.a.studentId}\\.pdf"; filename\\*=UTF-8''\\S+$`,
      ),
    );
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!)).toBe('ورقة قراءة - قطة سلمى - سارة.pdf');
    const lines = (await pdfText(res.rawPayload))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // pdftotext sets the colon (a neutral drawn from the Latin font) off the label; the page shows «الاسم: سارة».
    expect(lines[0]!.replace(/\s*:\s*/, ': ')).toBe('الاسم: سارة');
    expect(lines[1]!.normalize('NFC')).toBe(pack.g1text.title.normalize('NFC'));
    expect(lines.length).toBeGreaterThan(3); // the passage is wrapped onto several lines
    // pdftotext moves the space after a full stop or comma to before it (the mark is a run of its own); the
    // page shows «لُولُو. لَوْنُ». Compared without the spaces around them, every word is still in order.
    const unspaced = (s: string) => s.normalize('NFC').replace(/\s*([.،])\s*/g, '$1');
    expect(unspaced(lines.slice(2).join(' '))).toBe(unspaced(words(pack.g1text.body).join(' ')));
  });

  it('refuses everyone in the organization who is not a teacher of the class (403)', async () => {
    for (const token of [
      w.a.otherTeacherToken,
      w.a.adminToken,
      w.a.principalToken,
      w.a.managerToken,
      w.a.parentToken,
      w.a.studentToken,
      w.superToken,
    ]) {
      const res = await client(t.app, token).get(own());
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('is 404 out of scope: another organization, a child not in the class, an unknown or foreign passage', async () => {
    const root = client(t.app, w.superToken);
    const elsewhere = await root.post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'ليلى',
      classId: w.a.otherClassId,
      quickCode: '11',
    });
    expect(elsewhere.statusCode).toBe(201);
    const foreignPassage = await insertPassage(t.db.sql, { organizationId: w.b.id, grade: 1 });
    const retiredPassage = await insertPassage(t.db.sql, { grade: 1, status: 'retired' });
    const cases = [
      readingUrl(w.b.classId, w.b.studentId, pack.g1text.id),
      readingUrl(w.b.classId, w.a.studentId, pack.g1text.id),
      readingUrl(w.a.classId, w.b.studentId, pack.g1text.id),
      readingUrl(w.a.classId, elsewhere.json().id, pack.g1text.id),
      readingUrl('cls_AAAAAAAAAAAA', w.a.studentId, pack.g1text.id),
      readingUrl(w.a.classId, w.a.studentId, 'psg_AAAAAAAAAAAA'),
      readingUrl(w.a.classId, w.a.studentId, foreignPassage),
      readingUrl(w.a.classId, w.a.studentId, retiredPassage),
    ];
    // The tenant checks come first, for the teacher and for callers the route then refuses alike.
    for (const token of [w.a.teacherToken, w.a.otherTeacherToken, w.a.parentToken]) {
      for (const url of cases) {
        const res = await client(t.app, token).get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
      }
    }
  });

  it('prints the organization’s own passage, and 422 language_safety_blocked for a refused one', async () => {
    const ownPassage = await insertPassage(t.db.sql, { organizationId: w.a.id, grade: 1 });
    expect((await teacher.get(readingUrl(w.a.classId, w.a.studentId, ownPassage))).statusCode).toBe(200);
    await t.db.sql`update content_passages set body_ar = 'ذهب سامر إلى الحديقة وهو ضعيف.' where id = ${ownPassage}`;
    const res = await teacher.get(readingUrl(w.a.classId, w.a.studentId, ownPassage));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'language_safety_blocked', details: [{ field: 'body' }] });
  });

  it('validates its input (422) and needs a token (401)', async () => {
    expect(
      (await teacher.get(`/api/classes/${w.a.classId}/students/${w.a.studentId}/reading-sheet.pdf`)).statusCode,
    ).toBe(422);
    expect((await teacher.get(readingUrl('not-a-class', w.a.studentId, pack.g1text.id))).statusCode).toBe(422);
    expect((await client(t.app).get(own())).statusCode).toBe(401);
  });

  it('writes nothing (no event, no row), also under parallel requests', async () => {
    const before = await writeCounts(t.db.sql);
    const answers = await Promise.all([1, 2, 3].map(() => teacher.get(own())));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await writeCounts(t.db.sql)).toEqual(before);
  });
});
