import { findProjection, type Projection, rebuildProjection, UnknownProjectionError } from '@qiraa/projections';
import { SingleBar } from 'cli-progress';
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
      const bar = new SingleBar({
        format: `${projection.name.padEnd(20)} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`,
        hideCursor: true,
        // Progress goes to stderr so stdout stays clean for scripts; no redraws when not a terminal.
        stream: process.stderr,
        noTTYOutput: false,
      });
      bar.start(1, 0);
      const result = await rebuildProjection({ sql, store }, projection, {
        batchSize,
        onProgress: ({ applied, total }) => {
          bar.setTotal(Math.max(total, 1));
          bar.update(applied);
        },
      });
      bar.stop();
      const seconds = (Date.now() - started) / 1000;
      console.log(`rebuilt ${projection.name}: ${result.applied} events in ${seconds.toFixed(2)} s`);
    }
  });
}
