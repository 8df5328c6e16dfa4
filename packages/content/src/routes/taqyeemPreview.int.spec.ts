import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { insertBlueprintCell, insertForm } from '../testing/contentFixtures';

const { t, w } = useTestWorld();

const preview = (token: string, query: string) => client(t.app, token).get(`/api/admin/taqyeem/preview?${query}`);
const day = (n: number) => new Date(Date.UTC(2026, 8, n));

describe('GET /api/admin/taqyeem/preview', () => {
  it('grade 3: questions in cell order and position order, breaks after passages, the organization’s form first', async () => {
    const own = await insertForm(t.db.sql, {
      organizationId: w.a.id,
      grade: 3,
      window: 'BOY',
      measures: { text1_comprehension: 3, text2_comprehension: 3, spelling_choice: 3 },
      approvedAt: day(1),
    });
    // A newer global form: the organization's own still wins, and the preview says there is an alternate.
    await insertForm(t.db.sql, {
      organizationId: null,
      grade: 3,
      window: 'BOY',
      measures: { text1_comprehension: 3 },
      approvedAt: day(20),
    });
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.a.id,
      grade: 3,
      window: 'BOY',
      kind: 'measures',
      measures: ['spelling_choice', 'text1_comprehension', 'text2_comprehension', 'orf_text'],
    });
    const res = await preview(w.a.adminToken, `organizationId=${w.a.id}&schoolId=${w.a.schoolId}&grade=3&window=BOY`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.cell).toEqual({
      source: 'org',
      kind: 'measures',
      measures: ['spelling_choice', 'text1_comprehension', 'text2_comprehension', 'orf_text'],
      subSkillIds: [],
    });
    expect(body.form).toEqual({ id: own.formId, externalId: own.externalId, version: 1, status: 'operational' });
    const expectedIds = [
      ...own.itemIds['spelling_choice']!,
      ...own.itemIds['text1_comprehension']!,
      ...own.itemIds['text2_comprehension']!,
    ];
    expect(body.questions.map((q: { student: { id: string } }) => q.student.id)).toEqual(expectedIds);
    expect(body.questions.map((q: { meta: { breakBefore: boolean } }) => q.meta.breakBefore)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true, // first text2 question: the text1 passage is behind
      false,
      false,
    ]);
    const first = body.questions[3];
    expect(Object.keys(first.student).sort()).toEqual(['id', 'options', 'passageId', 'stemAr', 'version']);
    expect(first.student.passageId).toBe(own.passageIds['text1_comprehension']);
    expect(first.student.options).toEqual([
      { key: 'a', textAr: 'شجرة' },
      { key: 'b', textAr: 'بيت' },
      { key: 'c', textAr: 'قلم' },
    ]);
    expect(first.authoring).toEqual({
      measureCode: 'text1_comprehension',
      formPosition: 1,
      itemPattern: 'passage_literal',
      subSkillId: 'lc_explicit_detail',
      correctOptionKey: 'a',
      etag: 'r1',
    });
    expect(first.meta.sectionKey).toBe('text1');
    expect(body.sessionPlan).toEqual({
      sections: [
        { key: 'spelling', total: 3 },
        { key: 'text1', total: 3 },
        { key: 'text2', total: 3 },
      ],
      minutesPerStudent: { digital: 13, oral_text: 3, oral_familiar_words: 0, oral_pseudowords: 0 },
      totalMinutes: 16,
    });
    expect(body.passages.map((p: { id: string }) => p.id)).toEqual([
      own.passageIds['text1_comprehension'],
      own.passageIds['text2_comprehension'],
    ]);
    expect(body.passages[0]).toMatchObject({ titleAr: 'في الحديقة', wordCount: 7 });
    expect(body.measures).toEqual([
      {
        measureCode: 'spelling_choice',
        labelAr: 'الإملاء',
        mode: 'digital',
        teacherCell: 'digital',
        expected: 3,
        count: 3,
        scoringStatus: 'normed',
      },
      expect.objectContaining({ measureCode: 'text1_comprehension', expected: 3, count: 3 }),
      expect.objectContaining({ measureCode: 'text2_comprehension', expected: 3, count: 3 }),
      expect.objectContaining({ measureCode: 'orf_text', mode: 'oral', expected: null, count: null }),
    ]);
    expect(body.warnings).toEqual(['alternate_form']);
    // Organization B sees only the global form, with no blueprint cell for it.
    const b = await preview(w.b.adminToken, `organizationId=${w.b.id}&grade=3&window=BOY`);
    expect(b.json()).toMatchObject({ form: { version: 1 }, cell: { kind: 'unset' }, questions: [] });
    expect(b.json().form.id).not.toBe(own.formId);
    expect(b.json().warnings).toEqual(['unset']);
  });

  it('grade 2: no breaks; a short form is thin_pool; a school cell applies at its school', async () => {
    await insertForm(t.db.sql, {
      organizationId: w.a.id,
      grade: 2,
      window: 'BOY',
      measures: { text1_comprehension: 3, spelling_choice: 2 },
    });
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.a.id,
      schoolId: w.a.schoolId,
      grade: 2,
      window: 'BOY',
      kind: 'measures',
      measures: ['text1_comprehension', 'spelling_choice', 'orf_short_text'],
    });
    const res = await preview(w.a.adminToken, `organizationId=${w.a.id}&schoolId=${w.a.schoolId}&grade=2&window=BOY`);
    const body = res.json();
    expect(body.cell.source).toBe('school');
    expect(body.questions).toHaveLength(5);
    expect(body.questions.every((q: { meta: { breakBefore: boolean } }) => !q.meta.breakBefore)).toBe(true);
    expect(body.warnings).toEqual(['thin_pool']);
    expect(body.measures.find((m: { measureCode: string }) => m.measureCode === 'spelling_choice')).toMatchObject({
      expected: 3,
      count: 2,
    });
    // The other school has no cell: unset.
    const other = await preview(
      w.a.adminToken,
      `organizationId=${w.a.id}&schoolId=${w.a.otherSchoolId}&grade=2&window=BOY`,
    );
    expect(other.json().warnings).toEqual(['unset']);
  });

  it('no_operational_form: a measures cell with no form to serve it', async () => {
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.a.id,
      grade: 4,
      window: 'EOY',
      kind: 'measures',
      measures: ['text1_comprehension', 'orf_text'],
    });
    const body = (await preview(w.a.adminToken, `organizationId=${w.a.id}&grade=4&window=EOY`)).json();
    expect(body.form).toBeNull();
    expect(body.questions).toEqual([]);
    expect(body.sessionPlan.sections).toEqual([]);
    expect(body.warnings).toEqual(['no_operational_form']);
  });

  it('not_screened, legacy_cell, invalid_cell, provisional_scoring_table', async () => {
    const q = (grade: number, window: string) => `organizationId=${w.b.id}&grade=${grade}&window=${window}`;
    await insertBlueprintCell(t.db.sql, { organizationId: w.b.id, grade: 1, window: 'EOY', kind: 'not_screened' });
    expect((await preview(w.b.adminToken, q(1, 'EOY'))).json().warnings).toEqual(['not_screened']);

    await insertBlueprintCell(t.db.sql, {
      organizationId: w.b.id,
      grade: 2,
      window: 'EOY',
      kind: 'skills',
      subSkillIds: ['lc_explicit_detail'],
    });
    const legacy = (await preview(w.b.adminToken, q(2, 'EOY'))).json();
    expect(legacy.warnings).toEqual(['legacy_cell']);
    expect(legacy.questions).toEqual([]);
    expect(legacy.cell).toEqual({ source: 'org', kind: 'skills', measures: [], subSkillIds: ['lc_explicit_detail'] });

    // Stored before today's rules: word_recognition is grades 1-2.
    await insertForm(t.db.sql, {
      organizationId: w.b.id,
      grade: 3,
      window: 'MOY',
      measures: { text1_comprehension: 3, word_recognition: 4 },
    });
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.b.id,
      grade: 3,
      window: 'MOY',
      kind: 'measures',
      measures: ['text1_comprehension', 'word_recognition'],
    });
    expect((await preview(w.b.adminToken, q(3, 'MOY'))).json().warnings).toEqual(['invalid_cell']);

    await insertForm(t.db.sql, {
      organizationId: w.b.id,
      grade: 4,
      window: 'MOY',
      measures: { text1_comprehension: 3, root_identification: 3 },
    });
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.b.id,
      grade: 4,
      window: 'MOY',
      kind: 'measures',
      measures: ['text1_comprehension', 'root_identification'],
      acknowledgedProvisional: true,
    });
    const provisional = (await preview(w.b.adminToken, q(4, 'MOY'))).json();
    expect(provisional.warnings).toEqual(['provisional_scoring_table']);
    expect(provisional.measures[1]).toMatchObject({ measureCode: 'root_identification', scoringStatus: 'provisional' });
  });

  it('scope and query: 404 for another organization or school, 422 without organizationId or with a bad grade', async () => {
    const other = await preview(w.a.adminToken, `organizationId=${w.b.id}&grade=3&window=BOY`);
    expect(other.statusCode).toBe(404);
    const school = await preview(
      w.a.adminToken,
      `organizationId=${w.a.id}&schoolId=${w.b.schoolId}&grade=3&window=BOY`,
    );
    expect(school.statusCode).toBe(404);
    const noOrg = await preview(w.superToken, 'grade=3&window=BOY');
    expect(noOrg.statusCode).toBe(422);
    const badGrade = await preview(w.a.adminToken, `organizationId=${w.a.id}&grade=5&window=BOY`);
    expect(badGrade.statusCode).toBe(422);
    const badWindow = await preview(w.a.adminToken, `organizationId=${w.a.id}&grade=3&window=SUMMER`);
    expect(badWindow.statusCode).toBe(422);
    const teacher = await preview(w.a.teacherToken, `organizationId=${w.a.id}&grade=3&window=BOY`);
    expect(teacher.statusCode).toBe(403);
    const superOk = await preview(w.superToken, `organizationId=${w.b.id}&grade=3&window=BOY`);
    expect(superOk.statusCode).toBe(200);
  });
});
