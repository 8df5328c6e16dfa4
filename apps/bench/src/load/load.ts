/**
 * npm run load: a mixed workload from many clients against the service started as `npm start` starts it,
 * on loopback, for a bounded time. Prints throughput and p50/p95/p99 per operation and exits 1 on any error.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connect } from '@qiraa/db';
import { acquireDatabase } from '../database';
import { BENCH_PASSWORD } from '../gamification/tenants';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { percentile } from '../measure';
import { fmt, formatTable, section } from '../report';
import { seedLoadWorld } from './seed';
import { startServerProcess } from './server';
import { operations, runMix, type Tokens } from './workload';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '32' },
    students: { type: 'string', default: '600' },
    'class-size': { type: 'string', default: '30' },
  },
  strict: true,
});
const intArg = (name: string, raw: string, max: number) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`load: --${name} must be an integer from 1 to ${max}`);
    process.exit(2);
  }
  return n;
};
const seconds = intArg('seconds', values.seconds, 600);
const clients = intArg('clients', values.clients, 512);
const students = intArg('students', values.students, 50_000);
const classSize = intArg('class-size', values['class-size'], 99);

const log = (line: string) => console.error(line);
const db = await acquireDatabase(log);
const jwtSecret = randomBytes(32).toString('hex');
let exitCode = 0;
let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
const sql = connect(db.url, { max: 2 });
try {
  server = await startServerProcess(db.url, jwtSecret);
  log(`server pid ${server.pid} on ${server.baseUrl}; seeding ${students} students`);
  const world = await seedLoadWorld(sql, students, classSize);
  const { baseUrl } = server;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { accessToken: string };
  };
  const tokens: Tokens = {
    admin: (await post('/api/auth/login', { email: world.adminEmail, password: BENCH_PASSWORD })).accessToken,
    teachers: [],
    students: new Map(),
  };
  for (const cls of world.classes) {
    tokens.teachers.push(
      (await post('/api/auth/login', { email: cls.teacherEmail, password: BENCH_PASSWORD })).accessToken,
    );
    for (const s of cls.students) {
      const signedIn = await post(
        '/api/auth/student/quickcode',
        { classCode: cls.loginCode, quickCode: s.quickCode },
        { 'x-forwarded-for': `10.${(s.id >> 16) & 255}.${(s.id >> 8) & 255}.${s.id & 255}` },
      );
      tokens.students.set(s.id, signedIn.accessToken);
    }
  }

  // Baseline from the same server and clients: the cheapest route there is.
  const baseline = await runMix(
    [{ name: 'healthz', weight: 1, run: () => fetch(`${baseUrl}/healthz`) }],
    clients,
    Math.min(5, seconds),
  );
  const baselineOps = baseline.results.get('healthz')!.latenciesMs.length;
  const baselinePerSecond = (baselineOps / baseline.elapsedMs) * 1000;

  const runTag = randomBytes(3).toString('hex');
  log(`running the mix: ${clients} clients for ${seconds} s`);
  const { results, elapsedMs } = await runMix(operations(baseUrl, world, tokens, runTag), clients, seconds);

  section(`mixed load: ${clients} clients, ${seconds} s, ${students} students in ${world.classes.length} classes`);
  const rows: string[][] = [];
  const figures: Record<string, BenchFigure> = {};
  let allOps = 0;
  let allErrors = 0;
  const all: number[] = [];
  for (const [name, r] of results) {
    const sorted = [...r.latenciesMs].sort((a, b) => a - b);
    all.push(...sorted);
    allOps += sorted.length;
    allErrors += r.errors;
    const perSecond = (sorted.length / elapsedMs) * 1000;
    rows.push([
      name,
      fmt(sorted.length),
      fmt(perSecond, 1),
      fmt(percentile(sorted, 50), 1),
      fmt(percentile(sorted, 95), 1),
      fmt(percentile(sorted, 99), 1),
      String(r.errors),
    ]);
    if (r.firstError) log(`${name}: first error ${r.firstError}`);
    figures[`${name} p95 ms`] = { value: percentile(sorted, 95), unit: 'ms', baseline: null, ratio: null };
  }
  all.sort((a, b) => a - b);
  const perSecond = (allOps / elapsedMs) * 1000;
  rows.push([
    'all',
    fmt(allOps),
    fmt(perSecond, 1),
    fmt(percentile(all, 50), 1),
    fmt(percentile(all, 95), 1),
    fmt(percentile(all, 99), 1),
    String(allErrors),
  ]);
  rows.push(['baseline: GET /healthz', fmt(baselineOps), fmt(baselinePerSecond, 1), '', '', '', '']);
  console.log(formatTable(['operation', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'], rows));
  figures['mixed requests/s'] = {
    value: perSecond,
    unit: 'req/s',
    baseline: baselinePerSecond,
    ratio: perSecond / baselinePerSecond,
  };
  figures['mixed p99 ms'] = { value: percentile(all, 99), unit: 'ms', baseline: null, ratio: null };
  figures.errors = { value: allErrors, unit: 'count', baseline: null, ratio: null, goal: '0' };
  if (allErrors > 0) {
    log(`load: ${allErrors} errors (there must be none)`);
    exitCode = 1;
  }
  printBenchJson('load', figures);
} catch (error) {
  log(`load: ${(error as Error).stack ?? error}`);
  exitCode = 1;
} finally {
  await server?.stop();
  await sql.end({ timeout: 5 });
  await db.release();
}
process.exit(exitCode);
