import { parseArgs } from 'node:util';

export interface BenchArgs {
  /** Single-event appends (and raw inserts) to time. */
  appends: number;
  /** Audit events replayed by the projection catch-up and rebuild. */
  catchup: number;
  /** Concurrent writers, each with its own loop. */
  writers: number;
  /** Student streams the appends are spread over. */
  streams: number;
  /** Rounds the timed appends are split into, the contenders' order rotating each round. */
  rounds: number;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Flags win over environment variables, which win over the defaults. */
export function readArgs(argv = process.argv.slice(2), env = process.env): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      appends: { type: 'string' },
      catchup: { type: 'string' },
      writers: { type: 'string' },
      streams: { type: 'string' },
      rounds: { type: 'string' },
      small: { type: 'boolean' },
    },
    strict: true,
  });
  // --small (npm run bench): a quarter of the default sizes, for a run of all benches in a few minutes.
  const small = values.small || env.BENCH_SMALL === '1';
  return {
    appends: positiveInt('--appends', values.appends ?? env.BENCH_APPENDS, small ? 1500 : 6000),
    catchup: positiveInt('--catchup', values.catchup ?? env.BENCH_CATCHUP, small ? 5000 : 20_000),
    writers: positiveInt('--writers', values.writers ?? env.BENCH_WRITERS, 8),
    streams: positiveInt('--streams', values.streams ?? env.BENCH_STREAMS, 200),
    rounds: positiveInt('--rounds', values.rounds ?? env.BENCH_ROUNDS, 10),
  };
}
