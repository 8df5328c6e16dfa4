import { performance } from 'node:perf_hooks';

/**
 * How long one stretch of an import's row loop may hold the event loop. A 10 MB import spends seconds in the
 * language check and the content hashes; run in one stretch, every other request of the process (`/healthz`
 * included) would wait for all of it.
 */
export const IMPORT_SLICE_MS = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `rows.map(step)`, with a turn of the event loop (`setImmediate`, so waiting I/O runs first) each time a
 * slice of IMPORT_SLICE_MS is used up. Same results in the same order; `step` must not depend on other work
 * running in between (it only reads its row and values fixed before the loop).
 */
export async function mapInSlices<T, R>(rows: readonly T[], step: (row: T, index: number) => R): Promise<R[]> {
  const out = new Array<R>(rows.length);
  let sliceStart = performance.now();
  for (let i = 0; i < rows.length; i++) {
    out[i] = step(rows[i] as T, i);
    if (performance.now() - sliceStart >= IMPORT_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return out;
}
