import type { AnySql, SqlFragment, UnitOfWork } from '@qiraa/db';
import type {
  ChainLink,
  FieldedEvent,
  FieldKind,
  LogQuery,
  StreamHeadGap,
  StreamScope,
  StreamSummary,
  VerifyCheckpoint,
} from './auditReads';

/** Expected stream state for optimistic concurrency. A bigint is the stream's current version (event count). */
export type ExpectedVersion = 'no_stream' | 'stream_exists' | 'any' | bigint;

/** Opaque, adapter-specific position in the whole log; compare only through the store. */
export type Checkpoint = string;

export interface EventMetadata {
  actorUserId?: number | null;
  organizationId?: string | null;
  causationId?: string | null;
  correlationId?: string | null;
  [key: string]: unknown;
}

export interface NewEvent<Data = unknown> {
  /** Deterministic or client-given id; appending the same id again stores it once. Random when absent. */
  eventId?: string;
  type: string;
  schemaVersion?: number;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Data = unknown> {
  eventId: string;
  streamId: string;
  /** 1-based position of the event in its stream. */
  streamVersion: bigint;
  type: string;
  schemaVersion: number;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
  /** Position in the whole log, usable as a readAll checkpoint. */
  position: Checkpoint;
}

export type AppendResult =
  | { kind: 'appended'; streamVersion: bigint; events: RecordedEvent[] }
  /** Every event id was already stored in this stream: nothing written. */
  | { kind: 'duplicate'; streamVersion: bigint }
  | { kind: 'conflict'; expected: ExpectedVersion; actual: bigint | null };

export interface AppendOptions {
  expected?: ExpectedVersion;
  /**
   * Join this unit of work (PostgreSQL adapter): the events commit or roll back with the caller's own
   * writes, e.g. an inline projection. Adapters that cannot share a transaction append on their own.
   */
  uow?: UnitOfWork;
  /**
   * Without a unit of work, share a transaction and its commit with other appends and commands arriving at
   * about the same time when the process runs the write combiner (WRITE_COMBINE_MS; `inTransaction`'s
   * `combine`). Resolves only after the shared COMMIT. Ignored with `uow` and by adapters without it.
   */
  combine?: boolean;
}

/** One stream's share of an `appendPipelined`. */
export interface PipelinedWrite {
  streamId: string;
  events: readonly NewEvent[];
  /**
   * A bigint or `no_stream` gives the events their versions before the append answers; with `any` (a ledger
   * decided under a lock of its own) they read 0n, so only for projections that read no stream version.
   */
  expected: ExpectedVersion;
}

/** Appends sent but not yet answered (`EventStore.appendPipelined`). */
export interface PipelinedAppend {
  /** Every write's events as the append records them, in order (`streamVersion` per `PipelinedWrite.expected`); `position` is unknown (''). */
  readonly events: readonly RecordedEvent[];
  /**
   * One result per write; rejects with SQLSTATE `NOT_APPENDED` (`code`) when any met a conflict or a duplicate
   * (the unit of work then rolls back).
   */
  readonly written: Promise<Array<Extract<AppendResult, { kind: 'appended' }>>>;
}

/** One stream's share of an `appendMany`. */
export interface StreamAppend {
  streamId: string;
  events: readonly NewEvent[];
}

export interface ReadStreamOptions {
  /** First stream version to return (1-based). Default 1. */
  from?: bigint;
  limit?: number;
}

export interface ReadStreamWithinOptions {
  /** Only these event types (versions keep their gaps). */
  types?: readonly string[];
  /**
   * Of each event's data only these top-level keys (a fold over a few fields of large events). A store may
   * return the whole data instead: readers must not depend on the other keys being absent.
   */
  dataKeys?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive start; null or absent means the beginning of the log. */
  after?: Checkpoint | null;
  limit: number;
  /** Only these event types (the checkpoint still advances over the others). */
  types?: readonly string[];
}

export interface ReadAllResult {
  events: RecordedEvent[];
  /** Where the next read starts: the last event scanned, or the visible head when the scan reached it. */
  checkpoint: Checkpoint | null;
  /** True when nothing visible is left after `checkpoint`. */
  caughtUp: boolean;
  /**
   * Caught up, but committed events wait behind an older transaction that is still open (they become
   * readable when it ends). A reader woken for them should look again shortly instead of waiting for
   * the next wake-up.
   */
  waiting?: boolean;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  after?: Checkpoint | null;
  types?: readonly string[];
  batchSize?: number;
  onBatch(events: RecordedEvent[], checkpoint: Checkpoint): Promise<void>;
  onError?(error: unknown): void;
}

/** `EventStore.streamInStatement`'s answer: the expression to select, and how to read the value selected. */
export interface StreamInStatement {
  expr: SqlFragment;
  parse(value: unknown): RecordedEvent[];
}

export interface EventStore {
  /** Which adapter this is: for logs and diagnostics only; code that needs an ability asks for it by name below. */
  readonly adapter: 'postgres' | 'kurrentdb';
  /**
   * The log is the `es_events` table of the application's own database (PostgreSQL adapter): readers may read
   * its tables in SQL (a fold's few columns, the hash chain, the audit index) through the caller's connection.
   * False where the log lives elsewhere (KurrentDB): readers go through this interface.
   */
  readonly logInDatabase: boolean;
  append(streamId: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Several streams at once, each with expected version `any`, one result per append in order; joins
   * `options.uow` like `append`. Optional: the PostgreSQL adapter does it in one statement; callers fall
   * back to one `append` per stream without it.
   */
  appendMany?(appends: readonly StreamAppend[], options?: Pick<AppendOptions, 'uow'>): Promise<AppendResult[]>;
  /**
   * Appends in `uow` whose outcome nothing waits for: the store sends them with a guard that fails the unit of
   * work unless every event was stored, and answers the events as they will be recorded, so the caller sends its
   * own statements (inline projections, COMMIT) behind them in the same exchange: one round trip for a whole
   * command (`handleCommand`'s and `writeStreams`' `pipelined`). `recordedAt` is the events' `createdAt` as the
   * answer gives it (default: now). Optional: only a store whose log shares the caller's transaction can
   * (PostgreSQL, the guard of migration 0046); callers append and wait without it.
   */
  appendPipelined?(writes: readonly PipelinedWrite[], options: { uow: UnitOfWork; recordedAt?: Date }): PipelinedAppend;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * One stream read through the caller's connection (`sql`: a command's own transaction, so a retry after a
   * conflict sees the winner's events), in stream order. Absent where the log is not in the caller's
   * database (KurrentDB); domain code calls `readStreamThrough`, which falls back to `readStream`.
   */
  readStreamWithin?(sql: AnySql, streamId: string, options?: ReadStreamWithinOptions): Promise<RecordedEvent[]>;
  /** Several streams in one read through the caller's connection, each in stream order (`readStreamsThrough`). */
  readStreamsWithin?(sql: AnySql, streamIds: readonly string[]): Promise<RecordedEvent[]>;
  /**
   * A stream's events as an expression of the caller's own statement (`expr`, a jsonb array) and how to read its
   * value (`parse`: the events as `readStream` answers them), so a command reads its stream with its other reads
   * in one round trip. `streamId` is an expression of that statement. Absent where the log is not in the
   * caller's database (KurrentDB): the caller reads the stream apart.
   */
  streamInStatement?(sql: AnySql, streamId: SqlFragment): StreamInStatement;
  readAll(options: ReadAllOptions): Promise<ReadAllResult>;
  /**
   * Every committed event after `after` of these types, in log order: those `readAll` still holds back behind
   * an older open transaction (`waiting`), and those it held back when last asked whose older transaction has
   * ended since. A rebuild's swap applies them to the shadow tables (their commands already wrote them into the
   * live ones it drops) without moving its checkpoint past them. Absent where the log holds nothing back
   * (KurrentDB).
   */
  readHeldBack?(after: Checkpoint | null, types: readonly string[]): Promise<RecordedEvent[]>;
  /**
   * When the oldest event after the checkpoint of these types was written, or null: a projection's lag in
   * time, in one statement (/readyz asks it for every projection). Absent where only `readAll` can tell.
   */
  oldestAfter?(after: Checkpoint | null, types: readonly string[]): Promise<Date | null>;
  /** Number of visible events after the checkpoint (optionally of some types): projection lag. */
  countAfter(after: Checkpoint | null, types?: readonly string[]): Promise<number>;
  /** Position of the newest visible event, or null for an empty log. */
  head(): Promise<Checkpoint | null>;
  /**
   * Of each event of these streams only the named top-level data fields, as plain values (a replay's fold over a
   * few fields of thousands of events: no JSON document parsed per event), each stream in stream order.
   */
  readStreamFields(
    streamIds: readonly string[],
    options: { types?: readonly string[]; fields: Readonly<Record<string, FieldKind>> },
  ): Promise<FieldedEvent[]>;

  // The auditor's reads (docs/auditing.md): the whole log, browsed, filtered by organization and verified. They
  // need the log in the application's database (the organization of a stream, the student index, the hash
  // chain): the KurrentDB adapter throws `ReadNotSupportedError` (`logInDatabase` tells beforehand).

  /** These events (ids that are not UUIDs match nothing), in commit order, only those in scope. */
  readEventsById(eventIds: readonly string[], scope?: StreamScope | null): Promise<RecordedEvent[]>;
  /** The events whose metadata's `causationId` is this event (not itself), in commit order, at most `limit`. */
  readEventsCausedBy(eventId: string, options: { limit: number; scope?: StreamScope | null }): Promise<RecordedEvent[]>;
  /**
   * The global log in commit order, filtered, at most `limit`. Only events of transactions below the oldest
   * open one, as every log reader: an event that took a lower position but commits later is never skipped.
   */
  readLog(query: LogQuery): Promise<RecordedEvent[]>;
  /** Several whole streams merged in commit order. */
  readStreamsInLogOrder(streamIds: readonly string[]): Promise<RecordedEvent[]>;
  /** Whether the stream exists (and is in scope). */
  streamExists(streamId: string, scope?: StreamScope | null): Promise<boolean>;
  /** The streams whose events name the student (the index es_append keeps), in stream id order after `after`. */
  studentStreams(
    studentId: number,
    options: { after?: string | null; limit: number; scope?: StreamScope | null },
  ): Promise<StreamSummary[]>;
  /** The hash chain's links after `after` in commit order (committed below the oldest open transaction). */
  readChain(query: { after?: Checkpoint | null; limit: number; scope?: StreamScope | null }): Promise<ChainLink[]>;
  /** The streams whose recorded version is not their newest event's, in stream id order. */
  streamHeadGaps(scope?: StreamScope | null): Promise<StreamHeadGap[]>;
  /** The recorded verify checkpoints in commit order. */
  verifyCheckpoints(): Promise<VerifyCheckpoint[]>;
  /** Records a verify checkpoint (once per position). */
  recordVerifyCheckpoint(checkpoint: Omit<VerifyCheckpoint, 'id'>): Promise<void>;

  /** Pushes batches in log order until stopped. */
  subscribe(options: SubscribeOptions): Subscription;
  /** Called after each commit that appended events (wakes projections). */
  onAppended(listener: (events: readonly RecordedEvent[]) => void): void;
  close(): Promise<void>;
}

/** The category of a stream is the part before the first '-': `audit-org_1` → `audit`. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
