import type { Queue } from 'bullmq';

/** How long after a look that ended held back the next one starts. */
export const LOOK_AGAIN_MS = 1000;

/**
 * A worker's job that ended its look with events still held back (an older transaction anywhere on the server
 * is open: PostgreSQL's xmin horizon is cluster-wide) or the consumer busy elsewhere asks for another look
 * shortly, instead of leaving the events to the next sweep. Throttled by its own deduplication id: the job's own
 * id would fold it into the job still running, and a throttle's key lapses by itself, so the look that runs it
 * can ask again. Several workers asking at once make one job.
 */
export async function lookAgainLater(queue: Queue, name: string, data: Record<string, string>, id: string) {
  await queue.add(name, data, {
    delay: LOOK_AGAIN_MS,
    deduplication: { id: `${id}:again`, ttl: LOOK_AGAIN_MS },
    removeOnComplete: true,
    removeOnFail: 100,
  });
}
