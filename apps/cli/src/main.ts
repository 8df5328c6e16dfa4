import { failureLine, STOP_SIGNALS } from '@qiraa/runtime';
import { CommanderError } from 'commander';
import { CliError } from './cliError';
import { interruptClaimed } from './interrupt';
import { buildProgram } from './program';

// Killed by a signal, node skips its `exit` hooks and an embedded PostgreSQL this command started would be
// left running; exiting instead runs them (the shell convention: 128 + the signal number).
const SIGNAL_NUMBERS: Record<(typeof STOP_SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
// A command that claimed the signal (seed-demo puts the database back first) gets the first one; a second exits.
for (const signal of STOP_SIGNALS) {
  process.on(signal, () => {
    const exitCode = 128 + SIGNAL_NUMBERS[signal];
    if (!interruptClaimed(exitCode)) process.exit(exitCode);
  });
}

try {
  // A command that found problems (drift, refused lines) sets process.exitCode itself.
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to commander but successes to a shell user.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    console.error(`qiraa: ${failureLine(error)}`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
