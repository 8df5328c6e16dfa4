import { setTimeout as sleep } from 'node:timers/promises';
import { type CatchUpResult, needsAnotherLook } from './catchUp';
import { catchUpAll } from './catchUpAll';
import type { Projection } from './projection';
import type { RunnerDeps } from './runProjectionBatch';

/**
 * `Projector.catchUp`: everything committed before the call is projected when it resolves. A single pass
 * can stop short while an older transaction anywhere on the server is still open (PostgreSQL's xmin horizon
 * is cluster-wide) or another instance holds the projection, so it looks again until neither is the case,
 * every `intervalMs` for at most `timeoutMs`; the last results say `waiting` or `busy` if that ran out.
 * The BullMQ worker runs its jobs through it too (a wake-up added from inside a job would be folded into
 * that very job's deduplication id).
 */
export async function catchUpSettled(
  deps: RunnerDeps,
  projections: readonly Projection[],
  name?: string,
  { timeoutMs = 10_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<Map<string, CatchUpResult>> {
  const deadline = Date.now() + timeoutMs;
  const results = await catchUpAll(deps, projections, name);
  for (;;) {
    const again = [...results].filter(([, result]) => needsAnotherLook(result)).map(([projection]) => projection);
    if (again.length === 0 || Date.now() > deadline) return results;
    await sleep(intervalMs);
    for (const projection of again) {
      const [result] = (await catchUpAll(deps, projections, projection)).values();
      results.set(projection, result!);
    }
  }
}
