import { withRuntime } from '../withRuntime';

/** Each schedule's last run (tick, when it completed, what it did or its error) and when it is next due. */
export async function schedulesStatusCommand(options: { json?: boolean }): Promise<void> {
  await withRuntime(async ({ scheduler }) => {
    const statuses = await scheduler.status();
    if (options.json) {
      console.log(JSON.stringify(statuses, null, 2));
      return;
    }
    console.table(
      statuses.map((s) => ({
        schedule: s.name,
        cadence: s.cadence,
        'last tick': s.lastTick ?? '(never)',
        'completed at': s.lastCompletedAt?.toISOString() ?? (s.lastError ? `failed: ${s.lastError}` : '-'),
        outcome: s.lastOutcome ? JSON.stringify(s.lastOutcome) : '-',
        'next due': s.nextDueAt?.toISOString() ?? '(no organization)',
      })),
    );
  });
}
