/** A projection whose runs in this process keep failing: since when, how many runs, the last error. */
export interface ProjectionFailure {
  readonly name: string;
  /** `performance.now()` of the first failed run of the streak (elapsed time, not a domain date). */
  readonly since: number;
  readonly failedRuns: number;
  readonly message: string;
}

/** What the in-process projector saw of its runs, for /readyz: a success ends a projection's failure streak. */
export interface ProjectionHealth {
  failed(name: string, error: unknown): void;
  succeeded(name: string): void;
  failing(): ProjectionFailure[];
}

export function projectionHealth(): ProjectionHealth {
  const streaks = new Map<string, ProjectionFailure>();
  return {
    failed(name, error) {
      const before = streaks.get(name);
      streaks.set(name, {
        name,
        since: before?.since ?? performance.now(),
        failedRuns: (before?.failedRuns ?? 0) + 1,
        message: error instanceof Error ? error.message : String(error),
      });
    },
    succeeded(name) {
      streaks.delete(name);
    },
    failing: () => [...streaks.values()],
  };
}
