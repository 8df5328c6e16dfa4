import { failureLine } from '@qiraa/runtime';
import { CommanderError } from 'commander';
import { CliError } from './cliError';
import { buildProgram } from './program';

/**
 * Runs one `qiraa` command line (argv as process.argv has it) and leaves its shell exit code in
 * process.exitCode: 0, 2 for usage, 1 for a failure or what a command found (drift, refused lines).
 */
export async function runProgram(argv: readonly string[]): Promise<void> {
  try {
    // A command that found problems (drift, refused lines) sets process.exitCode itself.
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander but successes to a shell user.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else {
      console.error(`qiraa: ${failureLine(error)}`);
      process.exitCode = error instanceof CliError ? error.exitCode : 1;
    }
  }
}
