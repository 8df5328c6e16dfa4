import { type CatchUpResult, catchUp } from './catchUp';
import type { Projection } from './projection';
import { findProjection } from './projector';
import type { RunnerDeps } from './runProjectionBatch';

export async function catchUpAll(
  deps: RunnerDeps,
  projections: readonly Projection[],
  name?: string,
): Promise<Map<string, CatchUpResult>> {
  const targets = name ? [findProjection(projections, name)] : projections;
  const results = new Map<string, CatchUpResult>();
  for (const projection of targets) results.set(projection.name, await catchUp(deps, projection));
  return results;
}
