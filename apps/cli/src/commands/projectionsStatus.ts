import { projectionStatus } from '@qiraa/projections';
import { plainTable } from '../plainTable';
import { withRuntime } from '../withRuntime';

/**
 * `qiraa projections status`: one line per projection. `lag` counts the events of its types after its checkpoint;
 * `lag (s)` is the age of the oldest of them (0 when none waits), the figure /metrics exports as
 * qiraa_projection_lag_seconds: a few events waiting for minutes is a stall, many waiting for a second is not.
 */
export async function projectionsStatusCommand(options: { json?: boolean }): Promise<void> {
  await withRuntime(async ({ sql, store, projector }) => {
    const statuses = await projectionStatus({ sql, store }, projector.projections);
    if (options.json) {
      console.log(JSON.stringify(statuses, null, 2));
      return;
    }
    console.log(
      plainTable(
        statuses.map((s) => ({
          projection: s.name,
          version:
            (s.storedVersion ?? s.version) === s.version ? String(s.version) : `${s.storedVersion} -> ${s.version}`,
          state: s.needsRebuild ? 'needs rebuild' : s.lag === 0 ? 'current' : 'behind',
          lag: s.lag,
          'lag (s)': Number(s.lagSeconds.toFixed(1)),
          applied: s.eventsApplied,
          checkpoint: s.checkpoint ?? '(start)',
          'updated at': s.updatedAt?.toISOString() ?? '-',
        })),
      ),
    );
    const head = statuses[0]?.head;
    console.log(`log head: ${head ?? '(empty)'}`);
  });
}
