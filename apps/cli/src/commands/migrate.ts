import { migrate } from '@qiraa/db';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export async function migrateCommand(): Promise<void> {
  await withRuntime(
    async ({ sql }) => {
      const result = await migrate(sql);
      if (result.kind === 'checksum_mismatch') {
        throw new CliError(`applied migration file(s) changed on disk: ${result.files.join(', ')}`);
      }
      if (result.applied.length === 0) console.log(`up to date (${result.alreadyApplied} applied)`);
      for (const name of result.applied) console.log(`applied ${name}`);
    },
    { requireMigrated: false },
  );
}
