import { findProjection, type Projection, rebuildProjection, UnknownProjectionError } from '@qiraa/projections';
import { Presets, SingleBar } from 'cli-progress';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export async function projectionsRebuildCommand(name: string | undefined, options: { batch: string }): Promise<void> {
  const batchSize = Number(options.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new CliError('--batch must be a positive integer', 2);
  await withRuntime(async ({ sql, store, projector }) => {
    let targets: readonly Projection[];
    try {
      targets = name ? [findProjection(projector.projections, name)] : projector.projections;
    } catch (error) {
      if (error instanceof UnknownProjectionError) throw new CliError(error.message, 2);
      throw error;
    }
    for (const projection of targets) {
      const started = Date.now();
      const bar = new SingleBar(
        {
          format: `${projection.name.padEnd(20)} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`,
          hideCursor: true,
          // Progress goes to stderr so stdout stays clean for scripts; off a terminal it prints a line a second.
          stream: process.stderr,
          noTTYOutput: true,
          notTTYSchedule: 1000,
        },
        Presets.shades_classic,
      );
      let shown = false; // an empty log gets no bar, only the summary line
      // A failed rebuild must stop the bar too: its timer would keep the process alive.
      const result = await rebuildProjection({ sql, store }, projection, {
        batchSize,
        onProgress: ({ applied, total }) => {
          if (total === 0) return;
          if (!shown) bar.start(total, applied);
          shown = true;
          bar.setTotal(total);
          bar.update(applied);
        },
      }).finally(() => {
        if (shown) bar.stop();
      });
      const seconds = (Date.now() - started) / 1000;
      console.log(`rebuilt ${projection.name}: ${result.applied} events in ${seconds.toFixed(2)} s`);
    }
  });
}
