/**
 * npm run bench:decisions [-- --small --students N --class-size K --inline N --replay-runs R --raw N --writers W]
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), in process
 * (no HTTP: the decisions context's own functions, as the reactor and the request hook call them):
 * 1. a school of N students (2,000; classes of K) and its BOY screening window's evidence, written as the
 *    commands write it (assessment and decisions test kits): a digital sitting each (a second for a third of
 *    them) and a banded oral reading. Untimed setup.
 * 2. raw single-row INSERTs of evidence-shaped events from W writers: the same run's baseline;
 * 3. the window's recompute: the decisions reactor (`skillStatusReactor`) catches up over the whole window,
 *    as it does after a window closes (more than INLINE_RECOMPUTE_LIMIT students: not inline). Decisions/s
 *    (events appended to `decision-<id>` streams, every type) and students/s;
 * 4. inline recompute: one more oral reading for each of N students, then `recomputeSkillStatus` for that
 *    student alone, as the request hook runs it before the response (p50/p95 ms);
 * 5. replay of one student with a full year of evidence (three windows of sittings, 36 weekly probes, voids):
 *    `replayDecisions` R times after one untimed run (p50/p95 ms), each finding no drift.
 * Ends with one JSON line (apps/bench/src/jsonLine.ts).
 */
import { parseArgs } from 'node:util';
import { connect, migrateOrThrow } from '@qiraa/db';
import { recomputeSkillStatus, replayDecisions, skillStatusReactor } from '@qiraa/decisions';
import { recordOrfProbe } from '@qiraa/decisions/testing';
import { postgresEventStore } from '@qiraa/eventstore';
import { catchUp } from '@qiraa/projections';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { percentile, runWriters, timed } from '../measure';
import { createRawTable, rawInserter } from '../rawBaseline';
import { figure, fmt, formatTable, section } from '../report';
import { probeEvent } from '../workload';
import { ACADEMIC_YEAR, decisionEventCounts, screeningEvidence, windowSchool } from './windowSchool';
import { yearStudent } from './yearStudent';

const NAME = 'bench:decisions';

function readArgs() {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean' },
      students: { type: 'string' },
      'class-size': { type: 'string' },
      inline: { type: 'string' },
      'replay-runs': { type: 'string' },
      raw: { type: 'string' },
      writers: { type: 'string' },
    },
    strict: true,
  });
  const small = values.small || process.env.BENCH_SMALL === '1';
  const int = (raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`expected a positive integer, got "${raw}"`);
    return n;
  };
  return {
    small,
    students: int(values.students, small ? 300 : 2000),
    classSize: Math.min(99, int(values['class-size'], 35)),
    inline: int(values.inline, small ? 50 : 200),
    replayRuns: int(values['replay-runs'], small ? 10 : 30),
    raw: int(values.raw, small ? 2000 : 6000),
    writers: int(values.writers, 8),
  };
}

const sortedStats = (times: number[]) => {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), min: times[0]!, max: times.at(-1)! };
};

async function main(): Promise<void> {
  const args = readArgs();
  const db = await acquireDatabase((line) => console.error(line));
  const sql = connect(db.url, { max: args.writers + 2, applicationName: 'qiraa-bench' });
  const figures: Record<string, BenchFigure> = {};
  try {
    await migrateOrThrow(sql);
    const deps = { sql, store: postgresEventStore(sql) };
    section('machine');
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    console.log(
      `flags:${args.small ? ' --small' : ''} --students ${args.students} --class-size ${args.classSize} ` +
        `--inline ${args.inline} --replay-runs ${args.replayRuns} --raw ${args.raw} --writers ${args.writers}`,
    );

    section(`setup: a school of ${fmt(args.students)} students, its BOY ${ACADEMIC_YEAR} screening evidence`);
    // One more student than the window's: the full-year student of step 5, kept out of the window recompute.
    const school = await windowSchool(sql, args.students + 1, args.classSize);
    const yearChild = school.students.pop()!;
    const evidence = await screeningEvidence(deps, school, args.writers);
    console.log(
      `${fmt(evidence.attempts)} attempts (sittings and oral readings) in ${fmt(evidence.elapsedMs / 1000, 1)} s ` +
        `(${fmt(evidence.perSecond)} attempts/s, ${args.writers} writers); nothing decided yet`,
    );

    section(`raw baseline: ${fmt(args.raw)} single-row INSERTs, ${args.writers} writers`);
    await createRawTable(sql);
    const insertRaw = rawInserter(sql);
    const raw = await runWriters(args.raw, args.writers, (i) => insertRaw(probeEvent(i, 300)));
    console.log(`${fmt(raw.perSecond)} rows/s, p50 ${fmt(raw.p50Ms, 2)} ms, p95 ${fmt(raw.p95Ms, 2)} ms`);

    section(`window recompute: the decisions reactor over ${fmt(args.students)} students' evidence`);
    const recompute = await timed(() => catchUp(deps, skillStatusReactor));
    if (recompute.result.kind !== 'caught_up') throw new Error(`reactor: ${JSON.stringify(recompute.result)}`);
    const byType = await decisionEventCounts(sql);
    const decisions = [...byType.values()].reduce((a, b) => a + b, 0);
    const [decided] = await sql<{ n: number }[]>`select count(distinct student_id)::int as n from dec_skill_status`;
    const seconds = recompute.elapsedMs / 1000;
    const decisionsPerSecond = decisions / seconds;
    const studentsPerSecond = decided!.n / seconds;
    console.log(
      `decision events: ${[...byType].map(([type, n]) => `${type} ${fmt(n)}`).join(', ')}; ` +
        `${fmt(decided!.n)} students decided`,
    );
    console.log(
      formatTable(
        ['figure', 'value', 'raw INSERT baseline'],
        [
          ['elapsed', `${fmt(seconds, 1)} s`, ''],
          ['decisions/s', fmt(decisionsPerSecond), `${fmt(raw.perSecond)} rows/s`],
          ['students/s', fmt(studentsPerSecond, 1), `${fmt(raw.perSecond)} rows/s`],
        ],
      ),
    );
    if (decided!.n !== args.students) throw new Error(`decided ${decided!.n} of ${args.students} students`);
    figures.windowDecisionsPerSecond = figure(decisionsPerSecond, raw.perSecond, 'decision events/s');
    figures.windowStudentsPerSecond = figure(studentsPerSecond, raw.perSecond, 'students/s');

    section(`inline recompute: one more oral reading, then one student's recompute, ${args.inline} students`);
    const inlineTimes: number[] = [];
    let appended = 0;
    for (let i = 0; i < args.inline; i++) {
      const s = school.students[Math.floor((i * school.students.length) / args.inline)]!;
      const place = { organizationId: school.organizationId, schoolId: school.schoolId, ...s };
      await recordOrfProbe(deps, { ...place, academicYear: ACADEMIC_YEAR }, new Date(), 10 + (i % 40));
      const t0 = performance.now();
      appended += (await recomputeSkillStatus(deps, s.studentId)).appended;
      inlineTimes.push(performance.now() - t0);
    }
    const inline = sortedStats(inlineTimes);
    console.log(
      formatTable(
        ['figure', 'value', 'raw INSERT baseline'],
        [
          ['recompute p50 ms', fmt(inline.p50, 1), `p50 ${fmt(raw.p50Ms, 2)}`],
          ['recompute p95 ms', fmt(inline.p95, 1), `p95 ${fmt(raw.p95Ms, 2)}`],
          ['decision events appended', fmt(appended), ''],
        ],
      ),
    );
    figures.inlineRecomputeP50Ms = figure(inline.p50, raw.p50Ms, 'ms');
    figures.inlineRecomputeP95Ms = figure(inline.p95, raw.p95Ms, 'ms');

    section('replay: one student with a full year of evidence');
    const year = await timed(() => yearStudent(deps, { ...school, students: [yearChild] }));
    console.log(
      `student ${year.result.studentId}: ${year.result.sittings} sittings, ${year.result.probes} weekly probes, ` +
        `${year.result.voids} voids: ${fmt(year.result.evidenceEvents)} evidence events, ` +
        `${fmt(year.result.decisionEvents)} decision events (written and decided in ${fmt(year.elapsedMs / 1000, 1)} s)`,
    );
    const first = await replayDecisions(deps, year.result.studentId);
    const replayTimes: number[] = [];
    let drifted = first.hasDrift ? 1 : 0;
    for (let r = 0; r < args.replayRuns; r++) {
      const t0 = performance.now();
      const report = await replayDecisions(deps, year.result.studentId);
      replayTimes.push(performance.now() - t0);
      if (report.hasDrift) drifted++;
    }
    const replay = sortedStats(replayTimes);
    console.log(
      `${first.keys.length} skill-status keys, ${first.monitoring.trends.length} trend year(s), ` +
        `${first.monitoring.alerts.length} alert(s) derived and compared`,
    );
    console.log(
      formatTable(
        ['figure', 'value', 'raw INSERT baseline'],
        [
          ['replay p50 ms', fmt(replay.p50, 1), `p50 ${fmt(raw.p50Ms, 2)}`],
          ['replay p95 ms', fmt(replay.p95, 1), `p95 ${fmt(raw.p95Ms, 2)}`],
          ['replay min / max ms', `${fmt(replay.min, 1)} / ${fmt(replay.max, 1)}`, ''],
          ['runs with drift', `${drifted} of ${args.replayRuns + 1}`, ''],
        ],
      ),
    );
    if (drifted > 0) throw new Error(`the replay found drift on a clean student (${drifted} runs)`);
    figures.yearReplayP50Ms = figure(replay.p50, raw.p50Ms, 'ms');
    figures.yearReplayP95Ms = figure(replay.p95, raw.p95Ms, 'ms');
    figures.yearReplayDriftRuns = figure(drifted, null, 'runs with drift');
    figures.rawInsertPerSecond = figure(raw.perSecond, null, 'rows/s');
  } finally {
    await sql.end({ timeout: 5 });
    await db.release();
  }
  printBenchJson(NAME, figures);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
