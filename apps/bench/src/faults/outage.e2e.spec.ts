import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPrivateCluster, type PrivateCluster } from './cluster';
import { RECOVERY_MS, timeSlack } from './load';
import { startApi, startEntriesFrom, stopService } from './processes';
import { type FaultContext, postgresOutage, type ScenarioResult, sigtermUnderLoad } from './scenarios';
import { seedWorld } from './world';

/**
 * Issue 23, faults 1 and 2 and the graceful stop, against a private PostgreSQL (never the machine's own).
 * Before the fixes the API died within milliseconds of a `pg_ctl -m immediate` stop under write load (the
 * postgres.js null-socket TypeError), or answered 500 INTERNAL and then hung; and a SIGTERM afterwards took
 * 15 s and exited 1.
 */
// Beside two other test workers on two cores a sound server answers late; `npm run faults` keeps the bounds.
process.env.FAULTS_TIME_SLACK ??= '4';

describe('the API under write load survives its database and stops cleanly', () => {
  let cluster: PrivateCluster;
  let ctx: FaultContext;

  beforeAll(async () => {
    startEntriesFrom(inject('qiraaEntries'));
    cluster = await createPrivateCluster();
    const api = await startApi('api-1', cluster.url);
    const world = await seedWorld(cluster.url, 12);
    const token = await world.token(api.baseUrl);
    ctx = { cluster, world, token, tag: `t${randomBytes(3).toString('hex')}`, api, log: () => {} };
  }, 300_000);
  afterAll(async () => {
    if (ctx?.api) await stopService(ctx.api, 'SIGKILL', 5000);
    await cluster?.destroy();
  });

  const clean = (r: ScenarioResult) => {
    expect(r.problems).toEqual([]);
    expect(r.tally.acknowledged.size).toBeGreaterThan(0);
    expect(r.verdict).toEqual({ lost: 0, doubleApplied: 0, unacknowledgedStored: 0 });
    expect(r.tally.outage500s, r.tally.other.join('\n')).toBe(0);
    expect(r.tally.fiveHundredsOutsideOutage, r.tally.other.join('\n')).toBe(0);
    expect(r.tally.hangs, r.tally.other.join('\n')).toBe(0);
    expect(r.tally.other).not.toContain('503 without Retry-After');
  };

  it('PostgreSQL stopped with -m immediate and started again: 503s, no 500, no death, recovery', async () => {
    const result = await postgresOutage(ctx);
    clean(result);
    expect(result.tally.unavailable503).toBeGreaterThan(0);
    expect(Math.max(...result.tally.recoveries)).toBeLessThan(RECOVERY_MS * timeSlack());
  }, 300_000);

  it('SIGTERM under load: exit 0, nothing acknowledged lost, nothing unacknowledged stored', async () => {
    clean(await sigtermUnderLoad(ctx));
  }, 300_000);
});
