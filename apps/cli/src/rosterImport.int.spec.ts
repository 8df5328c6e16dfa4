import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useTestWorld } from '@qiraa/app/testing';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

const { t, w } = useTestWorld();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'qiraa-roster-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const HEADER = 'externalId,schoolId,className,grade,academicYear,fullNameAr,gender,quickCode,parentEmails';

describe('qiraa roster import', () => {
  it('dry run writes nothing; the import writes; a bad row exits 1 naming file, line and code', async () => {
    const env = { DATABASE_URL: t.db.url };
    const good = path.join(dir, 'good.csv');
    await writeFile(good, `\uFEFF${HEADER}\ncli-1,${w.a.schoolId},صف سطر الأوامر,2,2026-2027,ليلى  حداد,female,,\n`);
    const children = () => t.db.sql`select full_name_ar from users where sourced_id = 'cli-1'`;

    const dry = await runCli(['roster', 'import', good, '--dry-run', '--org', w.a.id], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry_run');
    expect(await children()).toEqual([]);

    const real = await runCliInProcess(['roster', 'import', good, '--org', w.a.id, '--json'], env);
    expect(real.code, real.stderr).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ status: 'applied', counts: { students: { create: 1 } } });
    expect(await children()).toEqual([{ full_name_ar: 'ليلى حداد' }]);

    const bad = path.join(dir, 'bad.csv');
    await writeFile(bad, `${HEADER}\ncli-2,${w.a.schoolId},صف,9,2026-2027,اسم,,,\n`);
    const refused = await runCliInProcess(['roster', 'import', bad, '--org', w.a.id], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('bad.csv:2 grade grade_out_of_range');
    expect((await runCliInProcess(['roster', 'import', path.join(dir, 'none.csv'), '--org', w.a.id], env)).code).toBe(
      1,
    );
  }, 180_000);

  /** The worked example of docs/roster-import.md: its five OneRoster files and its simple CSV, as printed. */
  async function docsExample() {
    const doc = await readFile(new URL('../../../docs/roster-import.md', import.meta.url), 'utf8');
    const oneRoster = new Map(
      [...doc.matchAll(/^`(\w+\.csv)`\n\n```csv\n([\s\S]*?)```/gm)].map((m) => [m[1]!, m[2]!] as const),
    );
    const simpleSection = doc.slice(doc.indexOf('## The simple CSV'));
    const simple = simpleSection.match(/```csv\n([\s\S]*?)```/)![1]!;
    return { oneRoster, simple };
  }

  it('applies the docs’ OneRoster example from a folder as the docs say, and the same set as a ZIP changes nothing', async () => {
    const env = { DATABASE_URL: t.db.url };
    const { oneRoster } = await docsExample();
    expect([...oneRoster.keys()].sort()).toEqual([
      'classes.csv',
      'enrollments.csv',
      'orgs.csv',
      'roles.csv',
      'users.csv',
    ]);
    const folder = path.join(dir, 'oneroster');
    await mkdir(folder);
    for (const [name, text] of oneRoster) await writeFile(path.join(folder, name), text);
    await writeFile(path.join(folder, 'manifest.csv'), 'propertyName,value\noneroster.version,1.2\n'); // ignored

    const args = ['--org', w.a.id, '--academic-year', '2026-2027', '--json'];
    const run = await runCliInProcess(['roster', 'import', folder, ...args], env);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ format: 'oneroster', status: 'applied', errors: [] });
    // "creates a school, a class, the child (quickCode 01), the teacher (teaching the class) and the parent (linked)".
    const created = Object.fromEntries(
      Object.entries(report.counts).map(([k, c]) => [k, (c as { create: number }).create]),
    );
    expect(created).toEqual({
      schools: 1,
      classes: 1,
      students: 1,
      teachers: 1,
      principals: 0,
      parents: 1,
      classTeachers: 1,
      parentLinks: 1,
    });
    const [child] = await t.db.sql<{ full_name_ar: string; quick_code: string }[]>`
      select u.full_name_ar, cs.quick_code from users u join class_students cs on cs.student_user_id = u.id
      where u.organization_id = ${w.a.id} and u.sourced_id = 'k-1'`;
    expect(child).toEqual({ full_name_ar: 'محمد-أمين الخطيب', quick_code: '01' });
    // The applied import's audit entry carries its counts (numbers only).
    const [audit] = await t.db.sql<{ detail: Record<string, unknown> }[]>`
      select data->'detail' as detail from es_events
      where event_type = 'AuditRecorded' and data->>'eventType' = 'roster_imported'
        and data->'detail'->>'importId' = ${report.id}`;
    expect(audit!.detail).toMatchObject({
      status: 'applied',
      schoolsApplied: 1,
      students_create: 1,
      parentLinks_create: 1,
    });

    const zip = path.join(dir, 'roster.zip');
    await writeFile(zip, zipSync(Object.fromEntries([...oneRoster].map(([name, text]) => [name, strToU8(text)]))));
    const again = JSON.parse((await runCliInProcess(['roster', 'import', zip, ...args], env)).stdout);
    expect(again.status).toBe('applied');
    for (const c of Object.values(again.counts) as { create: number; update: number; deactivate: number }[]) {
      expect(c).toMatchObject({ create: 0, update: 0, deactivate: 0 });
    }
  });

  it('keeps external ids per organization: the docs’ simple CSV applies in two organizations, two children each', async () => {
    const env = { DATABASE_URL: t.db.url };
    const { simple } = await docsExample();
    const children = (org: string) => t.db.sql<{ sourced_id: string }[]>`
      select sourced_id from users where organization_id = ${org} and sourced_id like 'st-%' order by 1`;
    // The example names a made-up school; each organization imports it into its own (parents' emails are
    // accounts, unique across organizations: the second organization's parents have their own).
    const files = {
      [w.a.id]: simple.replaceAll('sch_4Xk2mP9qLw1B', w.a.schoolId),
      [w.b.id]: simple.replaceAll('sch_4Xk2mP9qLw1B', w.b.schoolId).replaceAll('@home.example', '@b-home.example'),
    };
    for (const [org, text] of Object.entries(files)) {
      const file = path.join(dir, `simple-${org}.csv`);
      await writeFile(file, text);
      const run = await runCliInProcess(['roster', 'import', file, '--org', org, '--json'], env);
      expect(run.code, run.stdout).toBe(0);
      expect(JSON.parse(run.stdout).counts.students).toMatchObject({ create: 2 });
    }
    expect(await children(w.a.id)).toEqual([{ sourced_id: 'st-0001' }, { sourced_id: 'st-0002' }]);
    expect(await children(w.b.id)).toEqual([{ sourced_id: 'st-0001' }, { sourced_id: 'st-0002' }]);
  });
});
