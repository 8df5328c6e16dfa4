/**
 * npm run bench
 *
 * Every bench at a reduced size, one after the other (they share the machine's two cores), each in its own
 * process as `npm run bench:<name>` starts it. Their output passes through; the run ends with one JSON line
 * holding every figure as `<bench>.<figure>`, and exits 1 if a bench failed or printed no JSON line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BenchFigure, printBenchJson } from './jsonLine';
import { fmt, formatTable, section } from './report';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Bench {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

// BENCH_SMALL=1 asks each bench for its reduced size; the gamification bench also reads its BENCH_* sizes.
const BENCHES: Bench[] = [
  { name: 'eventstore', args: ['--small'], env: {} },
  { name: 'http', args: ['--small'], env: {} },
  { name: 'content', args: [], env: {} },
  { name: 'assessment', args: ['--small'], env: {} },
  {
    name: 'gamification',
    args: [],
    env: {
      BENCH_INGEST: '1000',
      BENCH_SCHOOL_STUDENTS: '500',
      BENCH_BOARD_EVENTS: '100000',
      BENCH_BOARD_RUNS: '5',
      BENCH_REPLAY_EVENTS: '1000',
      BENCH_REPLAY_RUNS: '2',
    },
  },
  { name: 'decisions', args: ['--small'], env: {} },
  // 100 students through a day, then the practice figure's 300 (issue 28).
  { name: 'training', args: ['--small'], env: {} },
];

interface Outcome {
  name: string;
  code: number | null;
  seconds: number;
  figures: Record<string, BenchFigure> | null;
}

function run(bench: Bench): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', `bench:${bench.name}`, '--', ...bench.args], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMALL: '1', ...bench.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last: string | null = null;
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('{"bench"')) last = line;
    });
    child.on('close', (code) => {
      if (pending.startsWith('{"bench"')) last = pending;
      let figures: Outcome['figures'] = null;
      try {
        figures = last ? (JSON.parse(last) as { figures: Record<string, BenchFigure> }).figures : null;
      } catch {
        figures = null;
      }
      resolve({ name: bench.name, code, seconds: (Date.now() - started) / 1000, figures });
    });
  });
}

const outcomes: Outcome[] = [];
for (const bench of BENCHES) {
  section(`npm run bench:${bench.name} ${bench.args.join(' ')}`.trimEnd());
  outcomes.push(await run(bench));
}

section('all benches');
const figures: Record<string, BenchFigure> = {};
const rows: string[][] = [];
for (const o of outcomes) {
  for (const [key, f] of Object.entries(o.figures ?? {})) {
    figures[`${o.name}.${key}`] = f;
    rows.push([
      `${o.name}.${key}`,
      fmt(f.value, 1),
      f.baseline === null ? '' : fmt(f.baseline, 1),
      f.ratio === null ? '' : fmt(f.ratio, 2),
      f.goal ?? '',
    ]);
  }
}
console.log(formatTable(['figure', 'value', 'baseline', 'ratio', 'goal'], rows));
console.log();
console.log(
  formatTable(
    ['bench', 'exit', 'seconds', 'JSON line'],
    outcomes.map((o) => [o.name, String(o.code), fmt(o.seconds, 1), o.figures ? 'yes' : 'MISSING']),
    false,
  ),
);
printBenchJson('all', figures);
process.exitCode = outcomes.every((o) => o.code === 0 && o.figures) ? 0 : 1;
