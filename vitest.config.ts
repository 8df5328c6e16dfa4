import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

const WORKERS = Number(process.env.VITEST_MAX_WORKERS) > 0 ? Number(process.env.VITEST_MAX_WORKERS) : 4;

export default defineConfig({
  test: {
    projects,
    // Four files at a time: the int and e2e specs mostly wait (on commits, on child processes, on polls); with
    // three, a whole run kept 1.25 of the two cores busy on average (2,050 CPU-s in 1,633 s). Safe since Projector.catchUp waits
    // out events held back by another file's open transaction (catchUpSettled). VITEST_MAX_WORKERS overrides.
    maxWorkers: WORKERS,
    // As many as at most: tinypool ends a worker it finds idle beyond the minimum, and with workers kept across
    // files (isolate off, below) that termination surfaced as an unhandled "Terminating worker thread" that
    // ended the whole run (vitest-dev/vitest#8564), each time as the int project's last files ran.
    minWorkers: WORKERS,
    // The worker processes are the root's (one forks pool for every project): with the pool's default (isolate)
    // each file got a fresh process, so the int project's `isolate: false` kept no module across files. Off here,
    // a process runs file after file of one project (recycled between projects); each project's own `isolate`
    // still decides whether its files share loaded modules (vitest.workspace.ts).
    poolOptions: { forks: { isolate: false } },
    reporters: ['default', './packages/db/src/testing/summaryReporter.ts'],
    // QIRAA_PASSWORD_COST: argon2 at its smallest cost for the worlds' sign-ups
    // (packages/identity/src/engine/passwords.ts); the spec that inspects and times the real cost sets it back to
    // full for itself.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test', QIRAA_PASSWORD_COST: 'minimal' },
  },
});
