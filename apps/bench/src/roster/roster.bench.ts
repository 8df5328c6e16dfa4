/**
 * `npm run bench:roster` (issue 27): a ministry's OneRoster export of 20,000 children in 40 schools (20 classes
 * of 25, a teacher per class, a parent for every fifth child), imported as a dry run, applied, and applied again
 * (nothing changes), against a raw baseline in the same run: the same user rows and enrollments written by plain
 * multi-row INSERTs (1,000 rows a statement) into copies of the tables. Also the report of a file with 1,000
 * bad rows. Goals: the apply under 60 s and within 5× the baseline; the 1,000-error report under 2 s.
 * `--small`: 2,000 children in 4 schools. Ends with one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { connect, migrateOrThrow, type Sql } from '@qiraa/db';
import { postgresEventStore } from '@qiraa/eventstore';
import { importRoster } from '@qiraa/identity';
import { systemClock } from '@qiraa/kernel';
import { acquireDatabase } from '../database';
import { printBenchJson } from '../jsonLine';
import { oneRosterExport, simpleCsvWithErrors, type WorkloadUser } from './rosterWorkload';

const small = process.argv.includes('--small') || process.env.BENCH_SMALL === '1';
const workload = { schools: small ? 4 : 40, classesPerSchool: 20, childrenPerClass: 25, parentEvery: 5 };
const log = (line: string) => process.stderr.write(`${line}\n`);

async function rawBaseline(sql: Sql, users: WorkloadUser[], organizationId: string): Promise<number> {
  // Columns, defaults and indexes of the real tables; no checks (students' loginName comes from a trigger there).
  await sql`create table bench_users (like users including defaults including identity including indexes)`;
  await sql`create table bench_class_students (like class_students including all)`;
  const started = performance.now();
  const ids: bigint[] = [];
  for (let i = 0; i < users.length; i += 1000) {
    const batch = users.slice(i, i + 1000).map((u) => ({
      email: u.email,
      full_name_ar: u.fullNameAr,
      primary_persona: u.persona,
      organization_id: organizationId,
      sourced_id: u.sourcedId,
    }));
    const rows = await sql<{ id: bigint; primary_persona: string }[]>`
      insert into bench_users ${sql(batch)} returning id, primary_persona`;
    for (const r of rows) if (r.primary_persona === 'STUDENT') ids.push(r.id);
  }
  for (let i = 0; i < ids.length; i += 1000) {
    const batch = ids.slice(i, i + 1000).map((id, k) => ({
      class_id: `cls_bench${Math.floor((i + k) / 25)}`,
      student_user_id: id,
      quick_code: String(((i + k) % 25) + 1).padStart(2, '0'),
    }));
    await sql`insert into bench_class_students ${sql(batch)}`;
  }
  return performance.now() - started;
}

async function main() {
  const db = await acquireDatabase(log);
  const sql = connect(db.url, { max: 4 });
  try {
    await migrateOrThrow(sql);
    const store = postgresEventStore(sql);
    const deps = { sql, store, clock: systemClock };
    const organizationId = 'org_benchroster1';
    await sql`insert into organizations (id, name, slug, country, default_locale) values (${organizationId}, 'وزارة', 'bench', 'JO', 'ar-JO')`;
    const { zip, users, enrollments } = oneRosterExport(workload);
    const children = users.filter((u) => u.persona === 'STUDENT').length;
    log(
      `workload: ${children} children, ${users.length} users, ${enrollments} enrollments, ZIP ${(zip.length / 1e6).toFixed(1)} MB`,
    );
    const source = { kind: 'oneroster-zip' as const, bytes: zip };
    const options = { organizationId, actorUserId: null, deactivateMissing: false, academicYear: '2026-2027' };

    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      const result = await work();
      return { ms: performance.now() - started, result };
    };
    const baselineMs = await rawBaseline(sql, users, organizationId);
    const dry = await timed(() => importRoster(deps, source, { ...options, dryRun: true }));
    const apply = await timed(() => importRoster(deps, source, { ...options, dryRun: false }));
    const again = await timed(() => importRoster(deps, source, { ...options, dryRun: false }));
    if (apply.result.status !== 'applied' || apply.result.counts.students.create !== children) {
      throw new Error(
        `apply did not write the roster: ${apply.result.status} ${JSON.stringify(apply.result.counts.students)}`,
      );
    }
    if (again.result.counts.students.unchanged !== children) throw new Error('the second apply changed something');
    const [school] = await sql<
      { id: string }[]
    >`select id from schools where organization_id = ${organizationId} limit 1`;
    const errors = await timed(() =>
      importRoster(
        deps,
        { kind: 'simple-csv', name: 'bad.csv', bytes: simpleCsvWithErrors(school!.id, 1000) },
        {
          ...options,
          dryRun: true,
        },
      ),
    );
    if (errors.result.errorCount !== 1000) throw new Error(`expected 1000 errors, got ${errors.result.errorCount}`);

    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`roster import, ${children} children in ${workload.schools} schools`);
    console.log(`  raw multi-row INSERT baseline  ${s(baselineMs)}`);
    console.log(`  dry run                        ${s(dry.ms)}`);
    console.log(
      `  apply                          ${s(apply.ms)}  (${(apply.ms / baselineMs).toFixed(1)}× baseline; goal < 60 s and ≤ 5×)`,
    );
    console.log(`  apply again (no change)        ${s(again.ms)}`);
    console.log(`  report of 1,000 bad rows       ${s(errors.ms)}  (goal < 2 s)`);
    printBenchJson('roster', {
      applySeconds: {
        value: apply.ms / 1000,
        unit: 's',
        baseline: baselineMs / 1000,
        ratio: apply.ms / baselineMs,
        goal: '< 60 s, ratio ≤ 5',
      },
      dryRunSeconds: { value: dry.ms / 1000, unit: 's', baseline: baselineMs / 1000, ratio: dry.ms / baselineMs },
      reapplySeconds: { value: again.ms / 1000, unit: 's', baseline: baselineMs / 1000, ratio: again.ms / baselineMs },
      errorReportSeconds: { value: errors.ms / 1000, unit: 's', baseline: null, ratio: null, goal: '< 2 s' },
    });
  } finally {
    await sql.end({ timeout: 5 });
    await db.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
