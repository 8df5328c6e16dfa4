/**
 * Set by the bench's SIGINT/SIGTERM handler. The workload loops check it before each operation, so a
 * Ctrl-C stops them and the cleanup (closing the API, dropping the database) is not kept waiting.
 */
export const interruption = { requested: false };

export function throwIfInterrupted(): void {
  if (interruption.requested) throw new Error('interrupted');
}
