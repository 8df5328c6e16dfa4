/**
 * A command that must not stop half-way (seed-demo) takes the first stop signal itself: main.ts hands the
 * signal here, and only when no command claimed it does it exit at once. A second signal always exits.
 */
let claimant: ((exitCode: number) => void) | undefined;

/** Claims the next stop signal for `handler` until the returned function is called. */
export function claimInterrupt(handler: (exitCode: number) => void): () => void {
  claimant = handler;
  return () => {
    if (claimant === handler) claimant = undefined;
  };
}

/** main.ts, with the exit code the signal means (128 + its number): whether a command took this signal (then the process goes on, and the command stops itself). */
export function interruptClaimed(exitCode: number): boolean {
  const handler = claimant;
  claimant = undefined;
  handler?.(exitCode);
  return handler !== undefined;
}
