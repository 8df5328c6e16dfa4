import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { SIMPLE_HEADER } from '../engine/readSimpleCsv';
import { csv, oneRosterZip, sampleSet, user } from '../testing/rosterFixtures';

const { t, w } = useTestWorld();

type Report = {
  id: string;
  status: string;
  counts: Record<string, { create: number; update: number; deactivate: number; unchanged: number }>;
  schools: { schoolId: string | null; sourcedId: string | null; outcome: string }[];
  errors: { file: string; line: number | null; field: string | null; code: string }[];
};

function upload(token: string, body: Uint8Array | string, contentType: string, query = '') {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/roster-imports${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body),
  });
}
async function importZip(token: string, zip: Uint8Array, query = '?academicYear=2026-2027'): Promise<Report> {
  const res = await upload(token, zip, 'application/zip', query);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function importCsv(token: string, text: string, query = ''): Promise<Report> {
  const res = await upload(token, text, 'text/csv', query);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const simple = (rows: string[][]) => csv(SIMPLE_HEADER, rows);
const rowCount = async () => {
  const [row] = await t.runtime.sql<{ n: number }[]>`
    select (select count(*) from users)::int + (select count(*) from classes)::int + (select count(*) from schools)::int
         + (select count(*) from class_students)::int + (select count(*) from parent_students)::int
         + (select count(*) from class_teachers)::int as n`;
  return row!.n;
};
const created = (r: Report) => Object.fromEntries(Object.entries(r.counts).map(([k, c]) => [k, c.create]));
const studentBySourced = async (organizationId: string, sourcedId: string) => {
  const [row] = await t.runtime.sql<{ id: bigint; full_name_ar: string; class_id: string; quick_code: string }[]>`
    select u.id, u.full_name_ar, cs.class_id, cs.quick_code from users u
    join class_students cs on cs.student_user_id = u.id and cs.active
    where u.organization_id = ${organizationId} and u.sourced_id = ${sourcedId}`;
  return row;
};

describe('OneRoster 1.2 import', () => {
  it('applies a sample set: schools, classes, children with quickCodes, teachers, a principal, parent links', async () => {
    const report = await importZip(w.a.adminToken, oneRosterZip(sampleSet('or1')));
    expect(report.status).toBe('applied');
    expect(report.errors).toEqual([]);
    expect(created(report)).toEqual({
      schools: 2,
      classes: 2,
      students: 4,
      teachers: 2,
      principals: 1,
      parents: 2,
      classTeachers: 2,
      parentLinks: 2,
    });
    const k1 = await studentBySourced(w.a.id, 'or1-k1');
    expect(k1!.full_name_ar).toBe('محمد-أمين الخطيب');
    // The new class's login cards are one call away, with the assigned codes 01-03.
    const cards = await client(t.app, w.a.adminToken).get(`/api/classes/${k1!.class_id}/login-cards`);
    expect(cards.statusCode, cards.body).toBe(200);
    expect(JSON.stringify(cards.json())).toContain('محمد-أمين الخطيب');
    const codes = await t.runtime.sql<{ quick_code: string }[]>`
      select quick_code from class_students where class_id = ${k1!.class_id} and active order by quick_code`;
    expect(codes.map((c) => c.quick_code)).toEqual(['01', '02', '03']);
    // The imported teacher teaches the class; the parent named by the child (and the one naming the child) are linked.
    const [links] = await t.runtime.sql<{ teachers: number; parents: number }[]>`
      select (select count(*) from class_teachers where class_id = ${k1!.class_id})::int as teachers,
             (select count(*) from parent_students ps join users s on s.id = ps.student_user_id
              where s.organization_id = ${w.a.id} and s.sourced_id in ('or1-k1', 'or1-k2'))::int as parents`;
    expect(links).toEqual({ teachers: 1, parents: 2 });
    // The report is stored and an audit entry with the counts is written.
    const stored = await client(t.app, w.a.adminToken).get(`/api/admin/roster-imports/${report.id}`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual(report);
    const [audit] = await t.runtime.sql<{ n: number }[]>`
      select count(*)::int as n from es_events where event_type = 'AuditRecorded' and data->>'eventType' = 'roster_imported'
        and data->'detail'->>'importId' = ${report.id}`;
    expect(audit!.n).toBe(1);
  });

  it('re-applied unchanged changes nothing; a changed file changes only what changed', async () => {
    const set = sampleSet('or2');
    await importZip(w.a.adminToken, oneRosterZip(set));
    const before = await studentBySourced(w.a.id, 'or2-k2');
    const rows = await rowCount();
    const again = await importZip(w.a.adminToken, oneRosterZip(set));
    expect(again.status).toBe('applied');
    expect(Object.values(again.counts).every((c) => c.create === 0 && c.update === 0 && c.deactivate === 0)).toBe(true);
    expect(again.counts.students!.unchanged).toBe(4);
    expect(await rowCount()).toBe(rows);

    // ليلى is renamed; يوسف moves to the other school's class; a new child joins.
    set.users[1] = user('or2-k2', 'ليلى', 'حداد الجديدة');
    set.enrollments[2] = ['e-move', '', '', 'or2-c2', 'or2-s2', 'or2-k3', 'student', 'true'];
    set.users.push(user('or2-k5', 'سارة', 'منصور'));
    set.roles.push(['r-k5', '', '', 'or2-k5', 'primary', 'student', 'or2-s1']);
    set.enrollments.push(['e-k5', '', '', 'or2-c1', 'or2-s1', 'or2-k5', 'student', 'true']);
    const changed = await importZip(w.a.adminToken, oneRosterZip(set));
    expect(changed.status).toBe('applied');
    expect(changed.counts.students).toEqual({ create: 1, update: 2, deactivate: 0, unchanged: 2 });
    expect(changed.counts.classes).toEqual({ create: 0, update: 0, deactivate: 0, unchanged: 2 });
    const renamed = await studentBySourced(w.a.id, 'or2-k2');
    expect(renamed).toMatchObject({ full_name_ar: 'ليلى حداد الجديدة', quick_code: before!.quick_code });
    const moved = await studentBySourced(w.a.id, 'or2-k3');
    expect(moved!.class_id).not.toBe(before!.class_id);
  });

  it('reads files with and without a byte order mark, and names in NFD as NFC with spaces folded', async () => {
    const set = sampleSet('or3');
    set.users[1] = user('or3-k2', 'لي\u0644\u0670ى', 'حداد  الكبير'); // a combining mark, a double space
    const report = await importZip(w.a.adminToken, oneRosterZip(set, { bom: true }));
    expect(report.status, JSON.stringify(report.errors)).toBe('applied');
    const k2 = await studentBySourced(w.a.id, 'or3-k2');
    expect(k2!.full_name_ar).toBe('لي\u0644\u0670ى حداد الكبير'.normalize('NFC'));
  });

  it('refuses a school whose sourcedId another organization owns; nothing is written for it', async () => {
    await importZip(w.b.adminToken, oneRosterZip(sampleSet('orb')));
    const set = sampleSet('or4');
    set.orgs.push(['orb-s1', '', '', 'مدرسة ب', 'school', '', 'moe']);
    set.classes.push(['or4-cx', '', '', 'صف ب', '03', '', '', 'homeroom', '', 'orb-s1', 't1']);
    const report = await importZip(w.a.adminToken, oneRosterZip(set));
    expect(report.status).toBe('partially_applied');
    expect(report.errors).toContainEqual(
      expect.objectContaining({ file: 'orgs.csv', code: 'school_not_in_organization' }),
    );
    expect(report.schools.find((s) => s.sourcedId === 'orb-s1')!.outcome).toBe('not_applied');
    const [row] = await t.runtime.sql`select 1 from classes where sourced_id = 'or4-cx'`;
    expect(row).toBeUndefined();
  });

  it('reports OneRoster problems by file and line: a missing file, unknown references, two classes, a used email', async () => {
    const set = sampleSet('or5');
    set.enrollments.push(['e-x', '', '', 'or5-nope', 'or5-s1', 'or5-k1', 'student', 'true']);
    set.enrollments.push(['e-y', '', '', 'or5-c2', 'or5-s2', 'or5-k1', 'student', 'true']);
    set.users[4] = user('or5-t1', 'سعاد', 'علي', 'teacher@a.example'.replace('teacher', 'x'));
    const taken = (await t.runtime.sql<{ email: string }[]>`select email from users where id = ${w.b.teacherId}`)[0]!
      .email;
    set.users[5] = user('or5-t2', 'خالد', 'عمر', taken);
    const report = await importZip(w.a.adminToken, oneRosterZip(set), '?academicYear=2026-2027&dryRun=true');
    const codes = report.errors.map((e) => `${e.file}:${e.line}:${e.code}`);
    expect(codes).toContain('enrollments.csv:8:unknown_reference');
    expect(codes).toContain('enrollments.csv:9:multiple_classes');
    expect(codes).toContain('users.csv:7:email_in_use');
    const { strToU8, zipSync } = await import('fflate');
    const noUsers = zipSync({ 'orgs.csv': strToU8('sourcedId,name,type\ns,n,school\n') });
    const missing = await importZip(w.a.adminToken, noUsers);
    expect(missing.status).toBe('not_applied');
    expect(missing.errors.map((e) => `${e.file}:${e.code}`)).toEqual(
      expect.arrayContaining(['classes.csv:missing_file', 'users.csv:missing_file', 'enrollments.csv:missing_file']),
    );
  });
});

describe('simple CSV import', () => {
  const row = (id: string, school: string, cls: string, name: string, extra: Partial<Record<string, string>> = {}) =>
    SIMPLE_HEADER.map((h) =>
      h === 'externalId'
        ? id
        : h === 'schoolId'
          ? school
          : h === 'className'
            ? cls
            : h === 'grade'
              ? (extra.grade ?? '2')
              : h === 'academicYear'
                ? (extra.academicYear ?? '2026-2027')
                : h === 'fullNameAr'
                  ? name
                  : (extra[h] ?? ''),
    );

  it('dry run: the report with counts, nothing written; then the real run writes what it said', async () => {
    const text = simple([
      row('sx1', w.a.schoolId, 'الثاني ج', 'سلمى', { gender: 'female', parentEmails: 'mama.sx1@home.example' }),
      row('sx2', w.a.schoolId, 'الثاني ج', 'عمر  خالد', { gender: 'male', quickCode: '07' }),
    ]);
    const rows = await rowCount();
    const dry = await importCsv(w.a.adminToken, text, '?dryRun=true');
    expect(dry.status).toBe('dry_run');
    expect(dry.schools).toEqual([expect.objectContaining({ schoolId: w.a.schoolId, outcome: 'would_apply' })]);
    expect(created(dry)).toMatchObject({ classes: 1, students: 2, parents: 1, parentLinks: 1 });
    expect(await rowCount()).toBe(rows);
    const real = await importCsv(w.a.adminToken, text);
    expect(real.counts).toEqual(dry.counts);
    expect(await studentBySourced(w.a.id, 'sx2')).toMatchObject({ full_name_ar: 'عمر خالد', quick_code: '07' });
    expect((await studentBySourced(w.a.id, 'sx1'))!.quick_code).toBe('01');
    const again = await importCsv(w.a.adminToken, text);
    expect(again.counts.students).toEqual({ create: 0, update: 0, deactivate: 0, unchanged: 2 });
  });

  it('reports every row problem with its line and field, and writes nothing in a dry run', async () => {
    const text = simple([
      row('', w.a.schoolId, 'ص', 'اسم'), // line 2
      row('e3', w.a.schoolId, 'ص', 'Name1'), // 3: digits in a name
      row('e4', w.a.schoolId, 'ص', 'اسم', { grade: '5' }), // 4
      row('e5', w.a.schoolId, 'ص', 'اسم', { academicYear: '2026-2028' }), // 5
      row('e6', w.a.schoolId, 'ص', 'اسم', { gender: 'x' }), // 6
      row('e7', w.a.schoolId, 'ص', 'اسم', { parentEmails: 'not-an-email' }), // 7
      row('e8', w.a.schoolId, 'ص', 'اسم', { quickCode: '00' }), // 8
      row('e9', w.a.schoolId, 'ص', 'اسم'), // 9
      row('e9', w.a.schoolId, 'ص', 'اسم'), // 10: duplicate
      row('e11', w.b.schoolId, 'ص', 'اسم'), // 11: another organization's school
      row('e12', w.a.schoolId, 'ص', 'اسم', { grade: '3' }), // 12: the class has grade 2 above
      row('e13', w.a.schoolId, 'ص', 'اسم', { quickCode: '09' }), // 13
      row('e14', w.a.schoolId, 'ص', 'اسم', { quickCode: '09' }), // 14: same code twice
    ]);
    const rows = await rowCount();
    const report = await importCsv(w.a.adminToken, text, '?dryRun=true');
    const got = report.errors.map((e) => `${e.line}:${e.field}:${e.code}`);
    expect(got).toEqual(
      expect.arrayContaining([
        '2:externalId:missing_field',
        '3:fullNameAr:invalid_name',
        '4:grade:grade_out_of_range',
        '5:academicYear:academic_year_invalid',
        '6:gender:invalid_value',
        '7:parentEmails:invalid_email',
        '8:quickCode:quick_code_invalid',
        '10:externalId:duplicate_id',
        '11:schoolId:school_not_found',
        '12:grade:conflicting_values',
        '14:quickCode:quick_code_taken',
      ]),
    );
    expect(report.errors.every((e) => e.file === 'roster.csv')).toBe(true);
    expect(await rowCount()).toBe(rows);
    const badHeader = await importCsv(w.a.adminToken, 'externalId,schoolId\n1,2\n', '?dryRun=true');
    expect(badHeader.errors).toEqual([expect.objectContaining({ line: 1, code: 'bad_header' })]);
    const latin1 = await upload(w.a.adminToken, new Uint8Array([0x61, 0xe9, 0x0a]), 'text/csv', '?dryRun=true');
    expect(latin1.json().errors).toEqual([expect.objectContaining({ code: 'not_utf8' })]);
  });

  it('applies the good school and not the one with a bad row (all or nothing per school)', async () => {
    const text = simple([
      row('p1', w.a.schoolId, 'الثالث أ', 'ريم'),
      row('p2', w.a.otherSchoolId, 'الثالث ب', 'زيد'),
      row('p3', w.a.otherSchoolId, 'الثالث ب', 'زيد 2'),
    ]);
    const report = await importCsv(w.a.adminToken, text);
    expect(report.status).toBe('partially_applied');
    expect(report.schools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ schoolId: w.a.schoolId, outcome: 'applied' }),
        expect.objectContaining({ schoolId: w.a.otherSchoolId, outcome: 'not_applied' }),
      ]),
    );
    expect(await studentBySourced(w.a.id, 'p1')).toBeDefined();
    expect(await studentBySourced(w.a.id, 'p2')).toBeUndefined();
  });

  it('keeps quickCodes: a changed one is refused, an empty one keeps the stored code', async () => {
    await importCsv(
      w.a.adminToken,
      simple([row('q1', w.a.schoolId, 'الرابع', 'نور', { grade: '4', quickCode: '33' })]),
    );
    const changed = await importCsv(
      w.a.adminToken,
      simple([row('q1', w.a.schoolId, 'الرابع', 'نور', { grade: '4', quickCode: '34' })]),
    );
    expect(changed.errors).toEqual([expect.objectContaining({ field: 'quickCode', code: 'quick_code_changed' })]);
    await importCsv(w.a.adminToken, simple([row('q1', w.a.schoolId, 'الرابع', 'نور', { grade: '4' })]));
    expect((await studentBySourced(w.a.id, 'q1'))!.quick_code).toBe('33');
  });

  it('refuses a 100th child of a class (class_full)', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(`full${i}`, w.a.schoolId, 'المزدحم', 'طفل'));
    const report = await importCsv(w.a.adminToken, simple(rows), '?dryRun=true');
    expect(report.errors).toEqual([expect.objectContaining({ line: 101, code: 'class_full' })]);
  });

  it('deactivates children missing from the file only when asked, and only in the schools it covers', async () => {
    await importCsv(
      w.a.adminToken,
      simple([row('d1', w.a.schoolId, 'صف د', 'أمل'), row('d2', w.a.schoolId, 'صف د', 'بشرى')]),
    );
    const otherSchoolChild = await client(t.app, w.a.adminToken).post(`/api/classes/${w.a.otherClassId}/students`, {
      fullNameAr: 'باقية',
    });
    expect(otherSchoolChild.statusCode).toBe(201);
    const only = simple([row('d1', w.a.schoolId, 'صف د', 'أمل')]);
    const kept = await importCsv(w.a.adminToken, only);
    expect(kept.counts.students!.deactivate).toBe(0);
    expect(await studentBySourced(w.a.id, 'd2')).toBeDefined();
    const pruned = await importCsv(w.a.adminToken, only, '?deactivateMissing=true');
    expect(pruned.counts.students!.deactivate).toBeGreaterThan(0);
    expect(await studentBySourced(w.a.id, 'd2')).toBeUndefined();
    const [still] = await t.runtime.sql<{ active: boolean }[]>`
      select active from class_students where student_user_id = ${otherSchoolChild.json().studentId}`;
    expect(still!.active).toBe(true);
  });
});

describe('who may import', () => {
  it('a teacher is 403; another organization named is 404; another organization’s report is 404', async () => {
    const text = simple([]);
    expect((await upload(w.a.teacherToken, text, 'text/csv')).statusCode).toBe(403);
    expect((await upload(w.a.adminToken, text, 'text/csv', `?organizationId=${w.b.id}`)).statusCode).toBe(404);
    const report = await importCsv(w.a.adminToken, text, '?dryRun=true');
    expect((await client(t.app, w.b.adminToken).get(`/api/admin/roster-imports/${report.id}`)).statusCode).toBe(404);
    expect((await client(t.app, w.a.teacherToken).get(`/api/admin/roster-imports/${report.id}`)).statusCode).toBe(403);
    const superNeedsOrg = await upload(w.superToken, text, 'text/csv');
    expect(superNeedsOrg.statusCode).toBe(422);
    const bySuper = await upload(w.superToken, text, 'text/csv', `?organizationId=${w.b.id}&dryRun=true`);
    expect(bySuper.statusCode, bySuper.body).toBe(201);
  });

  it('a JSON body is 415 UNSUPPORTED_MEDIA_TYPE; a body that is not a ZIP is reported, not a 500', async () => {
    const json = await upload(w.a.adminToken, '{"rows":[]}', 'application/json');
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const notZip = await importZip(w.a.adminToken, new TextEncoder().encode('not a zip'));
    expect(notZip.status).toBe('not_applied');
    expect(notZip.errors).toEqual([expect.objectContaining({ code: 'invalid_value', message: 'not a ZIP file' })]);
  });
});
