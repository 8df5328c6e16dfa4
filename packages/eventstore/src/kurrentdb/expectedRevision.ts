import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  NO_STREAM,
  STREAM_EXISTS,
} from '@eventstore/db-client';
import type { ExpectedVersion } from '../types';

/** Our versions count events (1-based, empty = 0); KurrentDB revisions index the last event (0-based). */
export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'no_stream' || expected === 0n) return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  if (expected === 'any') return ANY;
  if (expected < 0n) throw new RangeError(`expected version must not be negative: ${expected}`);
  return expected - 1n;
}

/** The stream's version from a revision; null when the stream does not exist. */
export function toVersion(revision: CurrentRevision): bigint | null {
  if (revision === NO_STREAM || revision < 0n) return null;
  return revision + 1n;
}
