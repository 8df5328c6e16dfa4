import type { RecordedEvent } from './types';

/**
 * One member of a context's event union: an event type (the string constant's literal) and its data. A
 * context declares `type XEvent = { type: typeof A; data: AData } | { type: typeof B; data: BData } | ...`
 * in its `events` file (docs/architecture.md, "Typed events").
 */
export interface EventShape {
  type: string;
  data: unknown;
}

/**
 * A recorded event of the union `E`: `type` discriminates, so `if (e.type === A)` narrows `data` to `AData`.
 * A member naming several types (`{ type: A | B; data: D }`) is split into one per type (but write one
 * member per type in a context's union: `OfType` picks whole members).
 */
export type Recorded<E extends EventShape> = Typed<RecordedEvent, E>;

/** `Recorded` over another event-like shape `R` (a fold's lighter event: type, data and a few fields). */
export type Typed<R extends EventShape, E extends EventShape> = E extends unknown
  ? TypedOne<R, E['type'], E['data']>
  : never;
type TypedOne<R, T extends string, D> = T extends unknown ? Omit<R, 'type' | 'data'> & { type: T; data: D } : never;

/** The members of `E` (a typed event, or a union of them) whose type is one of `T`. */
export type OfType<E extends { type: string }, T extends string> = Extract<E, { type: T }>;

/**
 * The events a store read returned, as the union `E`: the one place an untyped read becomes typed. Not a
 * check: the log holds what the context's own commands appended with these types (their data written from
 * the same interfaces), and a type outside the union simply matches no branch of the reader. Each context
 * names its reader after itself (`trainingEvents(events)`), so the trust sits in one place per context.
 */
export function eventsAs<E extends EventShape, R extends EventShape = RecordedEvent>(
  events: readonly R[],
): Array<Typed<R, E>> {
  return events as unknown as Array<Typed<R, E>>;
}

/** What an untyped batch meets: read it as a context's union first (`trainingEvents(events)`, `defineProjection<E>`). */
type UntypedBatch = { readonly 'read the batch as a context union first': never };

/** A type guard for `find`/`filter`: `stream.find(isOfType(A))?.data` is `AData | undefined`. */
export function isOfType<T extends string>(...types: T[]) {
  return <E extends { type: string }>(event: E): event is OfType<E, T> => (types as string[]).includes(event.type);
}

/**
 * The events of `batch` of the given types, narrowed to those members of its union, in order. An untyped
 * batch (`RecordedEvent[]`, whose `type` is any string) is refused at compile time: it would narrow to nothing.
 */
export function eventsOfType<E extends { type: string }, T extends E['type']>(
  batch: readonly E[] & (string extends E['type'] ? UntypedBatch : unknown),
  ...types: T[]
): Array<OfType<E, T>> {
  return batch.filter((e): e is OfType<E, T> => (types as string[]).includes(e.type));
}
