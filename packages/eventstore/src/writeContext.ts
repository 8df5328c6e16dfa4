import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventMetadata, NewEvent } from './types';

/**
 * Who and what an append happens for, set once per unit of work by whoever starts it: the HTTP layer per
 * request (the authenticated user, the request id), the reactor per event (the reaction, the event it
 * handles), the scheduler per tick and the CLI per command (docs/auditing.md, "Event metadata"). Every
 * adapter stamps it on each event it appends, so no command has to pass it along.
 */
export interface WriteContext {
  /** The authenticated user; absent when the writer is a system actor. */
  actorUserId?: number | null;
  /** Names the reaction (`reaction:<name>`), schedule (`schedule:<name>`) or CLI command (`cli:<command>`). */
  systemActor?: string;
  organizationId?: string | null;
  /** The request, tick or command that started the chain of writes (kept across reactions). */
  correlationId?: string;
  /** The event (or request) that caused these events. */
  causationId?: string;
}

const storage = new AsyncLocalStorage<WriteContext>();

/** Runs `fn` with `context` as the write context of every append it makes (nested: the inner one wins). */
export function withWriteContext<T>(context: WriteContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentWriteContext(): WriteContext | undefined {
  return storage.getStore();
}

const STAMPED = ['actorUserId', 'systemActor', 'organizationId', 'correlationId', 'causationId'] as const;

/**
 * The event's own metadata wins where it names a value (a reversal's causationId is the void it answers);
 * the context fills what it leaves absent or null. Without a context the metadata is kept as given.
 */
export function stampMetadata(metadata: EventMetadata | undefined, context = currentWriteContext()): EventMetadata {
  if (!context) return metadata ?? {};
  const stamped: Record<string, unknown> = { ...metadata };
  for (const key of STAMPED) {
    const value = context[key];
    if (value !== undefined && value !== null && (stamped[key] === undefined || stamped[key] === null)) {
      stamped[key] = value;
    }
  }
  // A system actor's event names no user unless the command said one.
  if (context.systemActor && stamped.actorUserId === undefined) stamped.actorUserId = null;
  return stamped as EventMetadata;
}

/** The events with their metadata stamped (a new array; the caller's objects are not changed). */
export function stampEvents(events: readonly NewEvent[]): NewEvent[] {
  const context = currentWriteContext();
  return events.map((e) => ({ ...e, metadata: stampMetadata(e.metadata, context) }));
}
