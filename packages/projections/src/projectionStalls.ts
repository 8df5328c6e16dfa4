import type { Checkpoint } from '@qiraa/eventstore';
import { readCheckpoints } from './checkpointStore';
import type { Projection } from './projection';
import type { ProjectionHealth } from './projectionHealth';
import type { RunnerDeps } from './runProjectionBatch';

export interface StallOptions {
  /** A projection whose oldest unprojected event is older than this lags (0: lag is not checked). */
  lagBoundSeconds: number;
  /** This process's runs (in-process projector); a streak of this many failed runs counts. */
  health?: ProjectionHealth;
  failedRunsBound?: number;
}

/**
 * What /readyz reports about projections, one phrase each: those failing in this process (two failed runs
 * in a row: a single transient error is retried by the next wake-up or sweep), and those whose oldest event
 * not yet projected is older than the bound, whoever runs them (this process, or workers that stopped).
 * The age is measured on the database's clock, the one that stamped the events.
 */
/** When the oldest event a projection has not applied was written: one statement where the store can. */
export async function oldestUnprojected(
  deps: RunnerDeps,
  after: Checkpoint | null,
  types: readonly string[],
): Promise<Date | undefined> {
  if (deps.store.oldestAfter) return (await deps.store.oldestAfter(after, types)) ?? undefined;
  return (await deps.store.readAll({ after, limit: 1, types })).events[0]?.createdAt;
}

export async function projectionStalls(
  deps: RunnerDeps,
  projections: readonly Projection[],
  options: StallOptions,
): Promise<string[]> {
  const problems: string[] = [];
  for (const failure of options.health?.failing() ?? []) {
    if (failure.failedRuns < (options.failedRunsBound ?? 2)) continue;
    const seconds = Math.round((performance.now() - failure.since) / 1000);
    problems.push(`${failure.name} failed ${failure.failedRuns} runs in a row (${seconds} s): ${failure.message}`);
  }
  if (options.lagBoundSeconds <= 0) return problems;
  const [stored, [clock]] = await Promise.all([
    readCheckpoints(deps.sql),
    deps.sql<{ now: Date }[]>`select now() as now`,
  ]);
  const oldest = await Promise.all(
    projections.map(async (p) => {
      const after = stored.get(p.name)?.checkpoint ?? null;
      return { name: p.name, at: await oldestUnprojected(deps, after, p.handles) };
    }),
  );
  for (const { name, at } of oldest) {
    if (!at || !clock) continue;
    const seconds = Math.floor((clock.now.getTime() - at.getTime()) / 1000);
    if (seconds > options.lagBoundSeconds)
      problems.push(`${name} lags: its oldest unprojected event is ${seconds} s old`);
  }
  return problems;
}
