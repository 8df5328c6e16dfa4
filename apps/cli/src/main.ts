import { CommanderError } from 'commander';
import { CliError } from './cliError';
import { buildProgram } from './program';

try {
  // A command that found problems (drift, refused lines) sets process.exitCode itself.
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to commander but successes to a shell user.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof CliError) {
    console.error(`qiraa: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(`qiraa: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
