/**
 * npm run faults: the service put through the faults its operators will meet, against a private PostgreSQL
 * (and a private Redis) on free loopback ports: PostgreSQL stopped with `-m immediate` under load and started
 * again, kill -9 mid-load and a restart, a SIGTERM under load, two API processes and a worker given the same
 * ids, Redis stopped, projection rebuilds during writes. Bounded (it stops itself), prints one summary line,
 * exits 1 on any loss, double effect, drift, unexplained 5xx, hang or failed step.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createPrivateCluster, type PrivateCluster } from './cluster';
import { FAULTS_JWT_SECRET, type Service, startApi, stopService } from './processes';
import {
  type FaultContext,
  killNine,
  postgresOutage,
  rebuildsDuringWrites,
  type ScenarioResult,
  sigtermUnderLoad,
  twoApisAndRedis,
} from './scenarios';
import { summarize } from './summary';
import { driftCheck } from './verify';
import { seedWorld } from './world';

const LIMIT_MS = Number(process.env.FAULTS_LIMIT_MS ?? 900_000);
const log = (line: string) => process.stderr.write(`faults: ${line}\n`);
const t0 = performance.now();
let cluster: PrivateCluster | undefined;
let api: Service | undefined;
const ctxRef: { ctx?: FaultContext } = {};

const cleanUp = async () => {
  const current = ctxRef.ctx?.api ?? api;
  if (current) await stopService(current, 'SIGKILL', 5000).catch(() => {});
  await cluster?.destroy().catch(() => {});
};

const guard = setTimeout(async () => {
  log(`stopped after ${LIMIT_MS / 1000} s (FAULTS_LIMIT_MS)`);
  process.stdout.write('faults: timed out\n');
  await cleanUp();
  process.exit(2);
}, LIMIT_MS);

let exitCode = 1;
try {
  void FAULTS_JWT_SECRET;
  cluster = await createPrivateCluster();
  log(`private PostgreSQL on port ${cluster.port} (${Math.round((performance.now() - t0) / 1000)} s)`);
  api = await startApi('api-1', cluster.url);
  log(`API up (${Math.round((performance.now() - t0) / 1000)} s)`);
  const world = await seedWorld(cluster.url);
  const token = await world.token(api.baseUrl);
  log(`seeded (${Math.round((performance.now() - t0) / 1000)} s)`);
  const ctx: FaultContext = { cluster, world, token, tag: `f${randomBytes(3).toString('hex')}`, api, log };
  ctxRef.ctx = ctx;
  const only = process.env.FAULTS_ONLY?.split(',');
  const scenarios = [
    ['pg-outage', postgresOutage],
    ['kill-9', killNine],
    ['two-apis', twoApisAndRedis],
    ['rebuild', rebuildsDuringWrites],
    ['sigterm', sigtermUnderLoad],
  ] as const;
  const results: ScenarioResult[] = [];
  for (const [name, run] of scenarios) {
    if (only && !only.includes(name)) continue;
    log(`${name} (${Math.round((performance.now() - t0) / 1000)} s)`);
    results.push(await run(ctx));
  }
  const drift = await driftCheck(cluster.url);
  if (drift.drift > 0) log(`drift: ${drift.detail}`);
  const { line, ok } = summarize(results, drift.drift, (performance.now() - t0) / 1000);
  process.stdout.write(`${line}\n`);
  exitCode = ok ? 0 : 1;
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  process.stdout.write('faults: failed before the summary\n');
  exitCode = 1;
} finally {
  clearTimeout(guard);
  await cleanUp();
}
process.exit(exitCode);
