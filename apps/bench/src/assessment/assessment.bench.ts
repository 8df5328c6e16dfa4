/**
 * npm run bench:assessment [-- --small --students N --class-size K --page-runs R --pdf-runs P --raw N]
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), with the
 * real API on a random loopback port, an organization whose BOY window is open and the demo content pack:
 * 1. raw single-row INSERTs of evidence-shaped events from 8 writers: the same run's baseline;
 * 2. a screening morning: N students (classes of K, grades 1-4) start their sittings at once and answer every
 *    question (answers/s, p50/p95/p99 answer latency, through POST /api/diagnostic-sessions/{id}/answers);
 * 3. the first class's full history (oral readings with marks, both word-list cells, a void), then the
 *    teacher page GET /api/teacher/classes/{id}/taqyeem R times (p50/p95);
 * 4. the two printed sheets, P times each (ms per sheet): a word list and a passage.
 * Ends with one JSON line (apps/bench/src/jsonLine.ts).
 */
import { parseArgs } from 'node:util';
import { connect, WireCounter } from '@qiraa/db';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { call, login, startApi } from '../gamification/api';
import { BENCH_PASSWORD } from '../gamification/tenants';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { percentile, runWriters } from '../measure';
import { perOperation, phaseCpu } from '../phaseCpu';
import { createRawTable, rawInserter } from '../rawBaseline';
import { figure, fmt, formatTable, section } from '../report';
import { perCommand, wireFigures, wireTable } from '../roundTrips';
import { probeEvent } from '../workload';
import { oralHistory } from './classHistory';
import { screeningMorning, sittingAnswers } from './morning';
import { screeningSchool } from './setup';
import { studentToken } from './studentTokens';

const NAME = 'bench:assessment';

function readArgs() {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean' },
      students: { type: 'string' },
      'class-size': { type: 'string' },
      'page-runs': { type: 'string' },
      'pdf-runs': { type: 'string' },
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
    students: int(values.students, small ? 100 : 300),
    classSize: Math.min(99, int(values['class-size'], 35)),
    pageRuns: int(values['page-runs'], small ? 50 : 200),
    pdfRuns: int(values['pdf-runs'], small ? 10 : 30),
    raw: int(values.raw, small ? 2000 : 6000),
  };
}

async function timeGets(runs: number, get: () => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

async function fetchPdf(url: string, token: string): Promise<void> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || body.subarray(0, 5).toString() !== '%PDF-') {
    throw new Error(`GET ${url}: HTTP ${response.status} ${body.subarray(0, 200).toString()}`);
  }
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
      // Three students more than the morning's: they answer alone first, to count the wire of one answer.
      const school = await screeningSchool(sql, args.students + 3, args.classSize);
      const alone = school.students.splice(args.students);

      section('round trips of one screening answer (one request at a time)');
      const next = sittingAnswers(
        api.baseUrl,
        alone.map((s) => studentToken(s.studentId, school.organizationId)),
      );
      // The first call starts a sitting; two answers warm the pool; 12 answers are counted.
      const answerWire = await perCommand(wire, 'POST /api/diagnostic-sessions/{id}/answers', 12, next, 3);
      console.log(wireTable([answerWire]));
      Object.assign(figures, wireFigures('screeningAnswer', answerWire));

      section(`raw baseline: ${args.raw} single-row INSERTs, 8 writers`);
      await createRawTable(sql);
      const insertRaw = rawInserter(sql);
      const raw = await runWriters(args.raw, 8, (i) => insertRaw(probeEvent(i, 300)));
      console.log(`${fmt(raw.perSecond)} rows/s, p50 ${fmt(raw.p50Ms, 2)} ms, p95 ${fmt(raw.p95Ms, 2)} ms`);

      section(`screening morning: ${args.students} students in concurrent sittings`);
      const tokens = school.students.map(({ studentId }) => studentToken(studentId, school.organizationId));
      const cpuDone = await phaseCpu(sql, 'screening-morning');
      const morning = await screeningMorning(api.baseUrl, tokens);
      const cpu = await cpuDone();
      console.log(`CPU: ${perOperation(cpu, morning.answers)} (starts included)`);
      figures.answerAppCpuMs = figure((cpu.appSeconds / morning.answers) * 1000, null, 'ms CPU per answer');
      if (cpu.serverSeconds !== null) {
        figures.answerServerCpuMs = figure((cpu.serverSeconds / morning.answers) * 1000, null, 'ms CPU per answer');
      }
      console.log(
        formatTable(
          ['figure', 'value', 'raw INSERT baseline'],
          [
            ['answers', fmt(morning.answers), ''],
            ['sittings completed', `${fmt(morning.completed)} of ${fmt(morning.students)}`, ''],
            ['answers/s', fmt(morning.answersPerSecond), `${fmt(raw.perSecond)} rows/s`],
            [
              'answer p50 / p95 / p99 ms',
              `${fmt(morning.p50Ms, 1)} / ${fmt(morning.p95Ms, 1)} / ${fmt(morning.p99Ms, 1)}`,
              `p50 ${fmt(raw.p50Ms, 2)}`,
            ],
          ],
        ),
      );
      figures.answersPerSecond = figure(morning.answersPerSecond, raw.perSecond, 'answers/s');
      figures.answerP50Ms = figure(morning.p50Ms, raw.p50Ms, 'ms');
      figures.answerP95Ms = figure(morning.p95Ms, raw.p95Ms, 'ms');
      figures.answerP99Ms = figure(morning.p99Ms, null, 'ms');

      const classId = school.classIds[0]!;
      const classStudents = school.students.filter((s) => s.classId === classId).map((s) => s.studentId);
      const teacherToken = await login(api.baseUrl, school.teacherEmail, BENCH_PASSWORD);
      section(`teacher page: class of ${classStudents.length} with full history`);
      const history = await oralHistory(sql, api.baseUrl, teacherToken, classId, classStudents);
      console.log(
        `history: ${classStudents.length} sittings, ${history.oralReadings} oral readings, ` +
          `${history.wordListReads} word-list reads, ${history.voids} void`,
      );
      const page = await timeGets(args.pageRuns, async () => {
        await call(api.baseUrl, 'GET', `/api/teacher/classes/${classId}/taqyeem?window=BOY`, { token: teacherToken });
      });
      console.log(`GET taqyeem x${args.pageRuns}: p50 ${fmt(page.p50, 1)} ms, p95 ${fmt(page.p95, 1)} ms`);
      figures.teacherPageP50Ms = figure(page.p50, raw.p50Ms, 'ms');
      figures.teacherPageP95Ms = figure(page.p95, raw.p95Ms, 'ms');

      section(`printed sheets, ${args.pdfRuns} each`);
      const { lists } = await call<{ lists: { id: string }[] }>(
        api.baseUrl,
        'GET',
        `/api/word-lists?studentId=${classStudents[0]}`,
        { token: teacherToken },
      );
      const [passage] = await sql<{ id: string }[]>`
        select p.id from content_passages p join classes c on c.grade = p.grade
        where c.id = ${classId} and p.status = 'operational' order by p.id limit 1`;
      const wordSheet = await timeGets(args.pdfRuns, () =>
        fetchPdf(`${api.baseUrl}/api/word-lists/${lists[0]!.id}/sheet.pdf`, teacherToken),
      );
      const readingSheet = await timeGets(args.pdfRuns, () =>
        fetchPdf(
          `${api.baseUrl}/api/classes/${classId}/students/${classStudents[0]}/reading-sheet.pdf?passageId=${passage!.id}`,
          teacherToken,
        ),
      );
      console.log(
        formatTable(
          ['sheet', 'mean ms', 'p95 ms'],
          [
            ['word list', fmt(wordSheet.mean, 1), fmt(wordSheet.p95, 1)],
            ['reading passage', fmt(readingSheet.mean, 1), fmt(readingSheet.p95, 1)],
          ],
        ),
      );
      figures.wordListSheetMs = figure(wordSheet.mean, raw.p50Ms, 'ms per sheet');
      figures.readingSheetMs = figure(readingSheet.mean, raw.p50Ms, 'ms per sheet');
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
