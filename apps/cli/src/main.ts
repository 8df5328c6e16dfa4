import { STOP_SIGNALS } from '@qiraa/runtime';
import { interruptClaimed } from './interrupt';
import { runProgram } from './runProgram';

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

await runProgram(process.argv);
