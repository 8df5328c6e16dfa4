export { deterministicEventId, randomEventId } from './eventId';
export { kurrentdbEventStore } from './kurrentdb/kurrentdbEventStore';
export { pollingSubscription } from './pollingSubscription';
export { decodeCheckpoint, encodeCheckpoint } from './postgres/checkpoint';
export { postgresEventStore } from './postgres/postgresEventStore';
export * from './types';
export { untilNothingWaiting } from './untilNothingWaiting';
