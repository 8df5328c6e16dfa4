import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useTestWorld } from '@qiraa/app/testing';
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
});
