/**
 * npm run bench:training [-- --small --students N --class-size K --raw N]
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), with the
 * real API on a random loopback port, a school of N students (classes of K, grades 1-4) and the demo content
 * pack (its training items, bridge items and scaffold prompts):
 * 1. raw single-row INSERTs of event-shaped rows from 8 writers: the same run's baseline;
 * 2. N students practise at once, each through a whole training day over HTTP: GET next-item (the first opens
 *    the day: levels started, plan appended), POST submit-response (about 1 answer in 4 wrong at the first
 *    try); answers/s, p50/p95 next-item and submit latency.
 * Ends with one JSON line (apps/bench/src/jsonLine.ts).
 */
import { parseArgs } from 'node:util';
import { connect, type Sql } from '@qiraa/db';
import { screeningSchool } from '../assessment/setup';
import { studentToken } from '../assessment/studentTokens';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { call, startApi } from '../gamification/api';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { percentile, runWriters } from '../measure';
import { createRawTable, rawInserter } from '../rawBaseline';
import { figure, fmt, formatTable, section } from '../report';
import { probeEvent } from '../workload';

const NAME = 'bench:training';

function readArgs() {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean' },
      students: { type: 'string' },
      'class-size': { type: 'string' },
      raw: { type: 'string' },
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

async function practiseDay(baseUrl: string, token: string, keys: Awaited<ReturnType<typeof answerKeys>>, seed: number) {
  const next: number[] = [];
  const submit: number[] = [];
  let answers = 0;
  for (let guard = 0; guard < 80; guard++) {
    let t0 = performance.now();
    const got = await call<Served>(baseUrl, 'GET', '/api/practice/queues/current/next-item', { token });
    next.push(performance.now() - t0);
    if (!got.served) break;
    const key = keys.get(got.served.item.id)!;
    const wrong = (seed + guard) % 4 === 0;
    t0 = performance.now();
    await call(baseUrl, 'POST', '/api/practice/queues/current/submit-response', {
      token,
      body: { itemId: got.served.item.id, selectedOptionKey: wrong ? key.wrong : key.right },
    });
    submit.push(performance.now() - t0);
    answers++;
  }
  return { next, submit, answers };
}

async function main(): Promise<void> {
  const args = readArgs();
  const db = await acquireDatabase((line) => console.error(line));
  const sql = connect(db.url, { max: 8 });
  const figures: Record<string, BenchFigure> = {};
  try {
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    const api = await startApi(db.url);
    try {
      const school = await screeningSchool(sql, args.students, args.classSize);
      const keys = await answerKeys(sql);

      section(`raw baseline: ${args.raw} single-row INSERTs, 8 writers`);
      await createRawTable(sql);
      const insertRaw = rawInserter(sql);
      const raw = await runWriters(args.raw, 8, (i) => insertRaw(probeEvent(i, 300)));
      console.log(`${fmt(raw.perSecond)} rows/s, p50 ${fmt(raw.p50Ms, 2)} ms, p95 ${fmt(raw.p95Ms, 2)} ms`);

      section(`practice: ${args.students} students each through a training day at once`);
      const tokens = school.students.map(({ studentId }) => studentToken(studentId, school.organizationId));
      const t0 = performance.now();
      const days = await Promise.all(tokens.map((token, i) => practiseDay(api.baseUrl, token, keys, i)));
      const seconds = (performance.now() - t0) / 1000;
      const answers = days.reduce((n, d) => n + d.answers, 0);
      const next = days.flatMap((d) => d.next).sort((a, b) => a - b);
      const submit = days.flatMap((d) => d.submit).sort((a, b) => a - b);
      const [ended] = await sql<{ n: number }[]>`select count(*)::int as n from trn_days where end_reason = 'done'`;
      console.log(
        formatTable(
          ['figure', 'value', 'raw INSERT baseline'],
          [
            ['answers', fmt(answers), ''],
            ['days ended done', `${fmt(ended?.n ?? 0)} of ${fmt(tokens.length)}`, ''],
            ['answers/s', fmt(answers / seconds), `${fmt(raw.perSecond)} rows/s`],
            [
              'next-item p50 / p95 ms',
              `${fmt(percentile(next, 50), 1)} / ${fmt(percentile(next, 95), 1)}`,
              `p95 ${fmt(raw.p95Ms, 2)}`,
            ],
            [
              'submit p50 / p95 ms',
              `${fmt(percentile(submit, 50), 1)} / ${fmt(percentile(submit, 95), 1)}`,
              `p95 ${fmt(raw.p95Ms, 2)}`,
            ],
          ],
        ),
      );
      figures.answersPerSecond = figure(answers / seconds, raw.perSecond, 'answers/s');
      figures.nextItemP50Ms = figure(percentile(next, 50), raw.p50Ms, 'ms');
      figures.nextItemP95Ms = figure(percentile(next, 95), raw.p95Ms, 'ms');
      figures.submitP50Ms = figure(percentile(submit, 50), raw.p50Ms, 'ms');
      figures.submitP95Ms = figure(percentile(submit, 95), raw.p95Ms, 'ms');
      figures.rawInsertPerSecond = figure(raw.perSecond, null, 'rows/s');
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
