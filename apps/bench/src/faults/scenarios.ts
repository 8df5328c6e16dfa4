import { performance } from 'node:perf_hooks';
import type { PrivateCluster } from './cluster';
import { clearWeather, newTally, runLoad, type Tally, timeSlack, type Weather } from './load';
import { runCli, type Service, startApi, startWorker, stopService } from './processes';
import { startPrivateRedis } from './redis';
import { type Verdict, verify } from './verify';
import type { FaultWorld } from './world';

export interface FaultContext {
  readonly cluster: PrivateCluster;
  readonly world: FaultWorld;
  readonly token: string;
  readonly tag: string;
  /** The long-lived API the scenarios share (replaced when a scenario restarts it). */
  api: Service;
  log(line: string): void;
}

export interface ScenarioResult {
  readonly name: string;
  readonly tally: Tally;
  readonly verdict: Verdict;
  /** Anything else that went wrong (a process died, a wrong exit code, /readyz wrong): each fails the run. */
  readonly problems: string[];
  /** kill -9 may cut a request after its commit: stored without an answer is then expected. */
  readonly unacknowledgedStoredAllowed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timedGet(url: string, timeoutMs: number) {
  const t0 = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    () => ({ status: 0, body: '' }),
  );
  return { ...res, ms: performance.now() - t0 };
}

/** Runs `loops` writers against `targets` while `fault` runs; verifies what was stored for this scenario. */
async function underLoad(
  ctx: FaultContext,
  name: string,
  opts: { loops: number; targets: () => string[]; unacknowledgedStoredAllowed?: boolean },
  fault: (weather: Weather, problems: string[]) => Promise<void>,
): Promise<ScenarioResult> {
  const tally = newTally();
  const weather = clearWeather();
  const problems: string[] = [];
  let done = false;
  const prefix = `${ctx.tag}-${name}`;
  const load = runLoad({
    world: ctx.world,
    targets: opts.targets,
    token: ctx.token,
    loops: opts.loops,
    prefix,
    until: () => done,
    tally,
    weather,
  });
  try {
    await fault(weather, problems);
  } catch (error) {
    problems.push(`${name}: ${(error as Error).message}`);
  } finally {
    done = true;
    await load;
  }
  if (weather.recoveringSince !== null) problems.push(`${name}: no write acknowledged after the fault`);
  const verdict = await verify(ctx.cluster.url, prefix, tally);
  ctx.log(
    `${name}: sent ${tally.sent} acknowledged ${tally.acknowledged.size} duplicates ${tally.duplicates} ` +
      `503 ${tally.unavailable503} refused ${tally.refused} lost ${verdict.lost} ` +
      `unacknowledged-stored ${verdict.unacknowledgedStored}${problems.length ? ` problems: ${problems.join('; ')}` : ''}` +
      `${tally.other.length ? ` other: ${tally.other.slice(0, 3).join(' | ')}` : ''}`,
  );
  return { name, tally, verdict, problems, unacknowledgedStoredAllowed: opts.unacknowledgedStoredAllowed ?? false };
}

/** PostgreSQL stopped with `-m immediate` under write load, started again 4 s later. */
export function postgresOutage(ctx: FaultContext): Promise<ScenarioResult> {
  return underLoad(ctx, 'pg-outage', { loops: 8, targets: () => [ctx.api.baseUrl] }, async (weather, problems) => {
    await sleep(2500);
    weather.outage = true;
    await ctx.cluster.stopImmediate();
    await sleep(1000);
    const [ready, health] = await Promise.all([
      timedGet(`${ctx.api.baseUrl}/readyz`, 5000),
      timedGet(`${ctx.api.baseUrl}/healthz`, 5000),
    ]);
    if (ready.status !== 503 || ready.ms > 1000 * timeSlack()) {
      const want = `503 within ${timeSlack()} s`;
      problems.push(`/readyz during the outage: ${ready.status} in ${Math.round(ready.ms)} ms (want ${want})`);
    }
    if (health.status !== 200) problems.push(`/healthz during the outage: ${health.status}`);
    await sleep(3000);
    await ctx.cluster.start();
    weather.outage = false;
    weather.recoveringSince = weather.backAt = performance.now();
    await sleep(4000);
    if (ctx.api.child.exitCode !== null || ctx.api.child.signalCode !== null) {
      problems.push(`the API died during the outage: ${ctx.api.output().slice(-400)}`);
    }
  });
}

/** kill -9 of the API mid-load, then a restart on the same port. */
export function killNine(ctx: FaultContext): Promise<ScenarioResult> {
  return underLoad(
    ctx,
    'kill-9',
    { loops: 8, targets: () => [ctx.api.baseUrl], unacknowledgedStoredAllowed: true },
    async (weather) => {
      await sleep(2500);
      const killed = ctx.api;
      weather.stopping.add(killed.baseUrl);
      await stopService(killed, 'SIGKILL');
      const port = Number(new URL(killed.baseUrl).port);
      ctx.api = await startApi('api-1', ctx.cluster.url, {}, port);
      weather.stopping.delete(killed.baseUrl);
      weather.recoveringSince = weather.backAt = performance.now();
      await sleep(2500);
    },
  );
}

/** SIGTERM under load: in-flight requests finish, exit 0, nothing acknowledged is lost; then a restart. */
export function sigtermUnderLoad(ctx: FaultContext): Promise<ScenarioResult> {
  return underLoad(ctx, 'sigterm', { loops: 8, targets: () => [ctx.api.baseUrl] }, async (weather, problems) => {
    await sleep(2500);
    const stopping = ctx.api;
    weather.stopping.add(stopping.baseUrl);
    const t0 = performance.now();
    const code = await stopService(stopping, 'SIGTERM', 30_000);
    const ms = performance.now() - t0;
    if (code !== 0) problems.push(`SIGTERM under load: exit ${code} after ${Math.round(ms)} ms`);
    else if (ms > 15_000) problems.push(`SIGTERM under load took ${Math.round(ms)} ms`);
    const port = Number(new URL(stopping.baseUrl).port);
    ctx.api = await startApi('api-1', ctx.cluster.url, {}, port);
    weather.stopping.delete(stopping.baseUrl);
    weather.recoveringSince = weather.backAt = performance.now();
    await sleep(2000);
  });
}

/** `qiraa projections rebuild gamification_ledger` three times while the API ingests. */
export function rebuildsDuringWrites(ctx: FaultContext): Promise<ScenarioResult> {
  return underLoad(ctx, 'rebuild', { loops: 4, targets: () => [ctx.api.baseUrl] }, async (_weather, problems) => {
    await sleep(1000);
    for (let run = 1; run <= 3; run++) {
      const rebuilt = await runCli(
        ['projections', 'rebuild', 'gamification_ledger', '--batch', '100'],
        ctx.cluster.url,
      );
      if (rebuilt.code !== 0) {
        const why = `${rebuilt.stderr}${rebuilt.stdout}`.trim().split('\n').at(-1) ?? '';
        problems.push(`rebuild ${run} exited ${rebuilt.code}: ${why.slice(0, 200)}`);
      }
    }
  });
}

/**
 * Two API processes and a worker on one PostgreSQL and a private Redis; every event is sent to both APIs at
 * once (one effect each); then Redis is stopped: writes go on, /readyz says degraded.
 */
export async function twoApisAndRedis(ctx: FaultContext): Promise<ScenarioResult> {
  const redis = await startPrivateRedis();
  const env = { REDIS_URL: redis.url, QUEUE_PREFIX: `${ctx.tag}-q` };
  const services: Service[] = [];
  try {
    // Each one kept as it comes up, so a failed start still stops the others.
    const keep = <T extends Service>(started: Promise<T>) =>
      started.then((s) => {
        services.push(s);
        return s;
      });
    const [a, b] = await Promise.all([
      keep(startApi('api-2', ctx.cluster.url, env)),
      keep(startApi('api-3', ctx.cluster.url, env)),
      keep(startWorker('worker', ctx.cluster.url, env)),
    ]);
    return await underLoad(
      ctx,
      'two-apis',
      { loops: 6, targets: () => [a.baseUrl, b.baseUrl] },
      async (_w, problems) => {
        await sleep(5000);
        await redis.stop();
        await sleep(1000);
        for (const api of [a, b]) {
          const ready = await timedGet(`${api.baseUrl}/readyz`, 5000);
          if (ready.status !== 200 || !ready.body.includes('"degraded"')) {
            problems.push(`${api.name} /readyz with Redis stopped: ${ready.status} ${ready.body.slice(0, 120)}`);
          }
        }
        await sleep(3000);
      },
    );
  } finally {
    await Promise.all(services.map((s) => stopService(s, 'SIGTERM', 20_000)));
    await redis.stop();
  }
}
