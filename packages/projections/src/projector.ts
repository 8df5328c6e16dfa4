import type { RecordedEvent } from '@qiraa/eventstore';
import type { CatchUpResult } from './catchUp';
import type { Projection } from './projection';

/** What the apps hold: something that keeps every projection moving after appends. */
export interface Projector {
  readonly mode: 'in_process' | 'bullmq';
  readonly projections: readonly Projection[];
  /** Called after a commit with the events it appended; schedules the projections that handle them. */
  wake(events: readonly RecordedEvent[]): void;
  /**
   * Brings projections to the head now, in this process (CLI, tests, read-your-writes helpers): everything
   * committed before the call, waiting out events held back by older open transactions (catchUpSettled).
   */
  catchUp(name?: string): Promise<Map<string, CatchUpResult>>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function projectionsFor(projections: readonly Projection[], events: readonly RecordedEvent[]): Projection[] {
  const types = new Set(events.map((e) => e.type));
  return projections.filter((p) => p.handles.some((t) => types.has(t)));
}

export function findProjection(projections: readonly Projection[], name: string): Projection {
  const found = projections.find((p) => p.name === name);
  if (!found) throw new UnknownProjectionError(name, projections);
  return found;
}

export class UnknownProjectionError extends Error {
  constructor(name: string, projections: readonly Projection[]) {
    super(`unknown projection "${name}"; known: ${projections.map((p) => p.name).join(', ') || 'none'}`);
    this.name = 'UnknownProjectionError';
  }
}
