/**
 * npm run bench:training [-- --small --students N --class-size K --raw N]
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), with the
 * real API on a random loopback port, a school of N students (classes of K, grades 1-4) and the demo content
 * pack (its training items, bridge items and scaffold prompts):
 * 1. raw single-row INSERTs of event-shaped rows from 8 writers: the same run's baseline;
 * 0. the round trips of one practice answer (students answering alone, one request at a time);
 * 2. N students practise at once, each through a whole training day over HTTP: GET next-item (the first opens
 *    the day: levels started, plan appended), POST submit-response (about 1 answer in 4 wrong at the first
 *    try); answers/s, p50/p95 next-item and submit latency;
 * 3. the same with 300 other students (issue 28's `practiceAnswersPerSecond`, `practiceAnswerP95Ms`), unless
 *    N is 300 (then 2. gives them).
 * Ends with one JSON line (apps/bench/src/jsonLine.ts). `--round-trips`: step 0 only (a write-path change's
 * check that an answer's round trips did not grow, without the minutes of the load steps).
 */
import { parseArgs } from 'node:util';
import { connect, type Sql, WireCounter } from '@qiraa/db';
import { screeningSchool } from '../assessment/setup';
import { studentToken } from '../assessment/studentTokens';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { call, startApi } from '../gamification/api';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { percentile, runWriters } from '../measure';
import { type PhaseCpu, perOperation, phaseCpu } from '../phaseCpu';
import { createRawTable, rawInserter } from '../rawBaseline';
import { figure, fmt, formatTable, section } from '../report';
import { perCommand, SETUP, wireFigures, wireTable } from '../roundTrips';
import { probeEvent } from '../workload';

const NAME = 'bench:training';
/** Issue 28's practice figure: answers/s and submit p95 with this many students practising at once. */
const PRACTICE_STUDENTS = 300;

function readArgs() {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean' },
      students: { type: 'string' },
      'class-size': { type: 'string' },
      raw: { type: 'string' },
      'round-trips': { type: 'boolean' },
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
    students: int(values.students, small ? 100 : 500),
    classSize: Math.min(99, int(values['class-size'], 35)),
    raw: int(values.raw, small ? 2000 : 6000),
    roundTripsOnly: values['round-trips'] === true,
  };
}

interface Served {
  trainingSessionId: string | null;
  served: { item: { id: string } } | null;
}

/** Right and wrong option keys of every bank item (the bench child answers by them). */
async function answerKeys(sql: Sql) {
  const rows = await sql<{ id: string; right: string; wrong: string }[]>`
    select id, correct_option_key as right,
           (select o->>'key' from jsonb_array_elements(options) o where o->>'key' <> correct_option_key limit 1) as wrong
    from content_items where content_role in ('target_training', 'bridge_practice')`;
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * A 503 (no database connection free within the pool wait: the server refuses rather than queue) is what a
 * child's app retries after `retryAfter`; the bench does the same, counts it, and times only the answered call.
 */
async function retrying503<T>(work: () => Promise<T>, refused: { count: number }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 20 || !String((error as Error).message).includes('HTTP 503')) throw error;
      refused.count += 1;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function practiseDay(baseUrl: string, token: string, keys: Awaited<ReturnType<typeof answerKeys>>, seed: number) {
  const next: number[] = [];
  const submit: number[] = [];
  const refusedNext = { count: 0 };
  const refusedSubmit = { count: 0 };
  let answers = 0;
  const timed = async <T>(into: number[], work: () => Promise<T>): Promise<T> =>
    retrying503(
      async () => {
        const t0 = performance.now();
        const result = await work();
        into.push(performance.now() - t0);
        return result;
      },
      into === next ? refusedNext : refusedSubmit,
    );
  for (let guard = 0; guard < 80; guard++) {
    const got = await timed(next, () =>
      call<Served>(baseUrl, 'GET', '/api/practice/queues/current/next-item', { token }),
    );
    if (!got.served) break;
    const key = keys.get(got.served.item.id)!;
    const wrong = (seed + guard) % 4 === 0;
    await timed(submit, () =>
      call(baseUrl, 'POST', '/api/practice/queues/current/submit-response', {
        token,
        body: { itemId: got.served!.item.id, selectedOptionKey: wrong ? key.wrong : key.right },
      }),
    );
    answers++;
  }
  return {
    next,
    submit,
    answers,
    refused: refusedNext.count + refusedSubmit.count,
    refusedSubmit: refusedSubmit.count,
  };
}

/**
 * Training days answered one answer at a time, as a command source for `perCommand`: a call that fetches the
 * next item returns SETUP (not counted; when a day is over it moves on to the next student), the call after
 * it submits the answer (counted); about 1 answer in 4 is wrong at the first try, as in the days below.
 */
function practiceAnswers(baseUrl: string, tokens: readonly string[], keys: Awaited<ReturnType<typeof answerKeys>>) {
  let served: Served['served'] = null;
  let student = 0;
  let step = 0;
  return async (): Promise<typeof SETUP | undefined> => {
    const token = tokens[student];
    if (!token) throw new Error('no student left to practise');
    if (!served) {
      const got = await call<Served>(baseUrl, 'GET', '/api/practice/queues/current/next-item', { token });
      if (got.served) served = got.served;
      else student += 1; // the day is over: the next student's
      return SETUP;
    }
    const key = keys.get(served.item.id)!;
    const wrong = step++ % 4 === 3;
    await call(baseUrl, 'POST', '/api/practice/queues/current/submit-response', {
      token,
      body: { itemId: served.item.id, selectedOptionKey: wrong ? key.wrong : key.right },
    });
    served = null;
    return undefined;
  };
}

interface PracticeRun {
  students: number;
  answers: number;
  seconds: number;
  ended: number;
  next: number[];
  submit: number[];
  /** Requests answered 503 (retried). */
  refused: number;
  /** Of them, submit-response requests (the rest: next-item). */
  refusedSubmit: number;
  cpu: PhaseCpu;
}

/** Every student of `tokens` through a training day at once; answers/s and the latencies. */
async function practiseDays(
  sql: Sql,
  baseUrl: string,
  tokens: readonly string[],
  keys: Awaited<ReturnType<typeof answerKeys>>,
) {
  const [before] = await sql<{ n: number }[]>`select count(*)::int as n from trn_days where end_reason = 'done'`;
  const cpuDone = await phaseCpu(sql, `practice-${tokens.length}`);
  const t0 = performance.now();
  const days = await Promise.all(tokens.map((token, i) => practiseDay(baseUrl, token, keys, i)));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = await cpuDone();
  const [after] = await sql<{ n: number }[]>`select count(*)::int as n from trn_days where end_reason = 'done'`;
  return {
    students: tokens.length,
    answers: days.reduce((n, d) => n + d.answers, 0),
    seconds,
    ended: (after?.n ?? 0) - (before?.n ?? 0),
    next: days.flatMap((d) => d.next).sort((a, b) => a - b),
    submit: days.flatMap((d) => d.submit).sort((a, b) => a - b),
    refused: days.reduce((n, d) => n + d.refused, 0),
    refusedSubmit: days.reduce((n, d) => n + d.refusedSubmit, 0),
    cpu,
  } satisfies PracticeRun;
}

function practiceTable(run: PracticeRun, raw: { perSecond: number; p95Ms: number }): string {
  return formatTable(
    ['figure', 'value', 'raw INSERT baseline'],
    [
      ['answers', fmt(run.answers), ''],
      ['days ended done', `${fmt(run.ended)} of ${fmt(run.students)}`, ''],
      ['requests refused 503 (retried): all / submits', `${fmt(run.refused)} / ${fmt(run.refusedSubmit)}`, ''],
      ['CPU per answer (its next-item included)', perOperation(run.cpu, run.answers), ''],
      ['answers/s', fmt(run.answers / run.seconds), `${fmt(raw.perSecond)} rows/s`],
      [
        'next-item p50 / p95 ms',
        `${fmt(percentile(run.next, 50), 1)} / ${fmt(percentile(run.next, 95), 1)}`,
        `p95 ${fmt(raw.p95Ms, 2)}`,
      ],
      [
        'submit p50 / p95 ms',
        `${fmt(percentile(run.submit, 50), 1)} / ${fmt(percentile(run.submit, 95), 1)}`,
        `p95 ${fmt(raw.p95Ms, 2)}`,
      ],
    ],
  );
}

async function main(): Promise<void> {
  const args = readArgs();
  const db = await acquireDatabase((line) => console.error(line));
  const sql = connect(db.url, { max: 8 });
  const figures: Record<string, BenchFigure> = {};
  try {
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    const wire = new WireCounter();
    const api = await startApi(db.url, { wire });
    try {
      // The day's students, then (unless the day is already of that size) the practice figure's 300 students,
      // then three who practise alone first, to count the wire of one answer.
      const practiceSize = args.students === PRACTICE_STUDENTS || args.roundTripsOnly ? 0 : PRACTICE_STUDENTS;
      const dayStudents = args.roundTripsOnly ? 0 : args.students;
      const school = await screeningSchool(sql, dayStudents + practiceSize + 3, args.classSize);
      const tokenOf = (s: { studentId: number }) => studentToken(s.studentId, school.organizationId);
      const dayTokens = school.students.slice(0, dayStudents).map(tokenOf);
      const practiceTokens = school.students.slice(dayStudents, dayStudents + practiceSize).map(tokenOf);
      const aloneTokens = school.students.slice(dayStudents + practiceSize).map(tokenOf);
      const keys = await answerKeys(sql);

      section('round trips of one practice answer (one request at a time)');
      const nextAnswer = practiceAnswers(api.baseUrl, aloneTokens, keys);
      const answerWire = await perCommand(
        wire,
        'POST /api/practice/queues/current/submit-response',
        12,
        nextAnswer,
        10,
      );
      console.log(wireTable([answerWire]));
      Object.assign(figures, wireFigures('practiceAnswer', answerWire));
      if (!args.roundTripsOnly) {
        section(`raw baseline: ${args.raw} single-row INSERTs, 8 writers`);
        await createRawTable(sql);
        const insertRaw = rawInserter(sql);
        const raw = await runWriters(args.raw, 8, (i) => insertRaw(probeEvent(i, 300)));
        console.log(`${fmt(raw.perSecond)} rows/s, p50 ${fmt(raw.p50Ms, 2)} ms, p95 ${fmt(raw.p95Ms, 2)} ms`);

        section(`practice: ${args.students} students each through a training day at once`);
        const day = await practiseDays(sql, api.baseUrl, dayTokens, keys);
        console.log(practiceTable(day, raw));
        figures.answersPerSecond = figure(day.answers / day.seconds, raw.perSecond, 'answers/s');
        figures.nextItemP50Ms = figure(percentile(day.next, 50), raw.p50Ms, 'ms');
        figures.nextItemP95Ms = figure(percentile(day.next, 95), raw.p95Ms, 'ms');
        figures.submitP50Ms = figure(percentile(day.submit, 50), raw.p50Ms, 'ms');
        figures.submitP95Ms = figure(percentile(day.submit, 95), raw.p95Ms, 'ms');

        let practice = day;
        if (practiceSize > 0) {
          section(`practice answers at ${PRACTICE_STUDENTS} students, each through a training day at once`);
          practice = await practiseDays(sql, api.baseUrl, practiceTokens, keys);
          console.log(practiceTable(practice, raw));
        }
        figures.practiceAnswersPerSecond = figure(
          practice.answers / practice.seconds,
          raw.perSecond,
          'answers/s',
          '>= 0.30x raw INSERT',
        );
        figures.practiceAnswerP95Ms = figure(percentile(practice.submit, 95), raw.p95Ms, 'ms', 'p95 < 50 ms');
        figures.practiceAppCpuMs = figure(
          (practice.cpu.appSeconds / practice.answers) * 1000,
          null,
          'ms CPU per answer',
        );
        if (practice.cpu.serverSeconds !== null) {
          figures.practiceServerCpuMs = figure(
            (practice.cpu.serverSeconds / practice.answers) * 1000,
            null,
            'ms CPU per answer',
          );
        }
        figures.rawInsertPerSecond = figure(raw.perSecond, null, 'rows/s');
      }
    } finally {
      await api.close();
    }
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
