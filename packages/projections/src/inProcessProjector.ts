import { catchUp, needsAnotherLook } from './catchUp';
import { catchUpSettled } from './catchUpSettled';
import type { Projection } from './projection';
import type { ProjectionHealth } from './projectionHealth';
import { type Projector, projectionsFor } from './projector';
import type { RunnerDeps } from './runProjectionBatch';

const RETRY_MS = 100;

export interface InProcessOptions {
  /** Safety-net interval: every projection is caught up this often even without a wake-up. */
  sweepIntervalMs?: number;
  onError?: (error: unknown, projection: string) => void;
  /** Told of every run's outcome (the API's /readyz reads it). */
  health?: ProjectionHealth;
}

/**
 * Without Redis the API drives the runner itself. Each projection has at most one run in flight; a wake-up
 * during a run asks for one more run after it, so no append is left unprojected.
 */
export function inProcessProjector(
  deps: RunnerDeps,
  projections: readonly Projection[],
  options: InProcessOptions = {},
): Projector {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let sweep: NodeJS.Timeout | undefined;
  let stopped = true;

  const schedule = (projection: Projection): void => {
    if (stopped) return;
    if (running.has(projection.name)) {
      again.add(projection.name);
      return;
    }
    const run = catchUp(deps, projection)
      .then((result) => {
        options.health?.succeeded(projection.name);
        if (needsAnotherLook(result)) setTimeout(() => schedule(projection), RETRY_MS).unref();
      })
      .catch((error) => {
        options.health?.failed(projection.name, error);
        options.onError?.(error, projection.name);
      })
      .finally(() => {
        running.delete(projection.name);
        if (again.delete(projection.name)) schedule(projection);
      });
    running.set(projection.name, run);
  };

  return {
    mode: 'in_process',
    projections,
    wake: (events) => projectionsFor(projections, events).forEach(schedule),
    catchUp: (name) => catchUpSettled(deps, projections, name),
    async start() {
      stopped = false;
      projections.forEach(schedule);
      sweep = setInterval(() => projections.forEach(schedule), options.sweepIntervalMs ?? 5000);
      sweep.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(sweep);
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}
