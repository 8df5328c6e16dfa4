import { projectionStatus } from '@qiraa/projections';
import { withRuntime } from '../withRuntime';

export async function projectionsStatusCommand(options: { json?: boolean }): Promise<void> {
  await withRuntime(async ({ sql, store, projector }) => {
    const statuses = await projectionStatus({ sql, store }, projector.projections);
    if (options.json) {
      console.log(JSON.stringify(statuses, null, 2));
      return;
    }
    console.table(
      statuses.map((s) => ({
        projection: s.name,
        version: s.storedVersion === s.version ? s.version : `${s.storedVersion ?? '-'} → ${s.version}`,
        checkpoint: s.checkpoint ?? '(start)',
        head: s.head ?? '(empty)',
        lag: s.lag,
        applied: s.eventsApplied,
        state: s.needsRebuild ? 'needs rebuild' : s.lag === 0 ? 'current' : 'behind',
      })),
    );
  });
}
