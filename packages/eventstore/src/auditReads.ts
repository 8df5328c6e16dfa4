import type { AnySql, Sql } from '@qiraa/db';
import type { Checkpoint } from './types';

/** A SQL fragment another package's read API hands in (identity's `userOrganizationQuery`), embedded as is. */
export type SqlFragment = ReturnType<Sql['unsafe']>;

/**
 * The streams of one organization. A stream's organization is the one its events' metadata named (es_append
 * keeps it on es_streams, migration 0044), else that of the first student its events name (es_stream_students),
 * else none (a platform stream: only an unscoped read sees it). Users are identity's table, so the student's
 * organization comes from identity's read fragment, given per call: `(sql, studentId column) → (organization_id)`.
 */
export interface StreamScope {
  organizationId: string;
  studentOrganization(sql: AnySql, studentId: SqlFragment): SqlFragment;
}

/** `EventStore.readLog`: the global log in commit order after `after`, filtered. */
export interface LogQuery {
  /** Exclusive start; null or absent: the beginning. */
  after?: Checkpoint | null;
  limit: number;
  types?: readonly string[];
  /** Only streams of this category (`streamCategory`). */
  category?: string;
  /** Recorded at or after. */
  from?: Date;
  /** Recorded before. */
  to?: Date;
  scope?: StreamScope | null;
}

/** One stream as `EventStore.studentStreams` lists it. */
export interface StreamSummary {
  streamId: string;
  category: string;
  version: bigint;
  /** When its first and last events were recorded (null when they are gone). */
  firstRecordedAt: Date | null;
  lastRecordedAt: Date | null;
}

/** One event as the hash chain (migration 0044) stores it, with the stored hash of the event before it. */
export interface ChainLink {
  eventId: string;
  streamId: string;
  streamVersion: bigint;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  /** Recording time in microseconds since the epoch (the chain hashes it at that precision). */
  createdMicros: bigint;
  position: Checkpoint;
  hash: Buffer | null;
  /** The previous version's stored hash, and whether that event is there at all. */
  previousHash: Buffer | null;
  hasPrevious: boolean;
}

/** A stream whose recorded version is not its newest event's (`present`: 0n when none is left). */
export interface StreamHeadGap {
  streamId: string;
  version: bigint;
  present: bigint;
}

/** A running digest a whole, clean verify run recorded (es_verify_checkpoints). */
export interface VerifyCheckpoint {
  id: number;
  position: Checkpoint;
  events: bigint;
  digest: Buffer;
  verifiedAt: Date;
}

/** How `readStreamFields` returns a top-level data field: as text, or cast to a number. */
export type FieldKind = 'text' | 'int' | 'bigint';

/** An event with only the asked data fields (`readStreamFields`). */
export interface FieldedEvent {
  streamId: string;
  type: string;
  createdAt: Date;
  data: Record<string, string | number | bigint | null>;
}

/** A read this adapter cannot answer (the auditor's reads need the log in the application's database). */
export class ReadNotSupportedError extends Error {
  constructor(adapter: string, read: string) {
    super(`the ${adapter} event store cannot answer ${read}: it needs the log in the application's PostgreSQL`);
    this.name = 'ReadNotSupportedError';
  }
}
