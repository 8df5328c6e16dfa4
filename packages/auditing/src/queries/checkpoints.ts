import type { EventStore } from '@qiraa/eventstore';

/** The newest checkpoint a whole verify run recorded, or null. */
export async function lastCheckpoint(store: EventStore) {
  const newest = (await store.verifyCheckpoints()).at(-1);
  if (!newest) return null;
  return {
    position: newest.position,
    events: Number(newest.events),
    digest: newest.digest.toString('hex'),
    verifiedAt: newest.verifiedAt.toISOString(),
  };
}
