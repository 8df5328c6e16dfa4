import { parseArgs } from 'node:util';

export interface GamificationBenchArgs {
  /** --small: the reduced defaults (SMALL below), for a run of a minute or two. */
  small: boolean;
  /** Events per request of the batched HTTP ingest. */
  batch: number;
  /** Mastery events POSTed through the HTTP ingest route (and raw rows inserted for comparison). */
  ingest: number;
  /** Concurrent HTTP clients, and concurrent raw writers. */
  clients: number;
  /** Students the ingested events are spread over. */
  students: number;
  /** Students of the leaderboard school. */
  schoolStudents: number;
  /** Active students per class of that school (a class holds at most 99: quick codes 01-99). */
  classSize: number;
  /** Mastery events bulk-inserted for the leaderboard school. */
  boardEvents: number;
  /** Calendar days (ending today, Asia/Amman) the leaderboard events are spread over. */
  boardDays: number;
  /** Timed GET requests per leaderboard window. */
  boardRuns: number;
  /** Mastery events of the replayed student. */
  replayEvents: number;
  /** Timed replayReport runs. */
  replayRuns: number;
}

export const USAGE = `npm run bench:gamification -- [--small] [--ingest 4000] [--clients 8] [--students 200] [--batch 100]
  [--school-students 2000] [--class-size 80] [--board-events 1000000] [--board-days 180] [--board-runs 25]
  [--replay-events 5000] [--replay-runs 5]
(each flag also reads BENCH_<FLAG> from the environment, e.g. BENCH_BOARD_EVENTS=100000)`;

function positiveInt(name: string, raw: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`--${name} must be an integer from 1 to ${max}, got "${raw}"\n${USAGE}`);
  }
  return value;
}

const FLAGS = {
  batch: ['batch', 100],
  ingest: ['ingest', 4000],
  clients: ['clients', 8],
  students: ['students', 200],
  schoolStudents: ['school-students', 2000],
  classSize: ['class-size', 80],
  boardEvents: ['board-events', 1_000_000],
  boardDays: ['board-days', 180],
  boardRuns: ['board-runs', 25],
  replayEvents: ['replay-events', 5000],
  replayRuns: ['replay-runs', 5],
} as const satisfies Record<Exclude<keyof GamificationBenchArgs, 'small'>, readonly [string, number]>;

/** --small: every size cut down (a flag or BENCH_* variable given still wins). */
const SMALL: Partial<Record<keyof typeof FLAGS, number>> = {
  ingest: 1000,
  schoolStudents: 500,
  boardEvents: 100_000,
  boardRuns: 15,
  replayEvents: 1000,
  replayRuns: 5,
};

/** Flags win over BENCH_* environment variables, which win over the defaults. */
export function readArgs(argv = process.argv.slice(2), env = process.env): GamificationBenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.values(FLAGS).map(([flag]) => [flag, { type: 'string' as const }])),
      small: { type: 'boolean' as const },
    },
    strict: true,
  });
  const small = values.small === true || env.BENCH_SMALL === '1';
  const read = (key: keyof typeof FLAGS, max?: number) => {
    const [flag, standard] = FLAGS[key];
    const fallback = small ? (SMALL[key] ?? standard) : standard;
    const envName = `BENCH_${flag.toUpperCase().replaceAll('-', '_')}`;
    return positiveInt(
      flag,
      ((values as Record<string, unknown>)[flag] as string | undefined) ?? env[envName],
      fallback,
      max,
    );
  };
  return {
    small,
    batch: read('batch', 500),
    ingest: read('ingest'),
    clients: read('clients', 64),
    students: read('students'),
    schoolStudents: read('schoolStudents'),
    classSize: read('classSize', 99),
    boardEvents: read('boardEvents'),
    boardDays: read('boardDays', 3650),
    boardRuns: read('boardRuns'),
    replayEvents: read('replayEvents'),
    replayRuns: read('replayRuns'),
  };
}
