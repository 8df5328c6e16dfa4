/**
 * The one source of "now" for every domain rule, schedule and response timestamp. Rules take it from
 * `ContextDeps.clock`, never from `new Date()` or the database's `now()`, so a test or a demo can move time
 * (`QIRAA_CLOCK_SHIFT_DAYS`) and every rule sees the same moment.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const DAY_MS = 86_400_000;

/** The system clock moved forward by whole days (tests and demos only; production refuses it at start-up). */
export function shiftedClock(days: number, base: Clock = systemClock): Clock {
  if (days === 0) return base;
  return { now: () => new Date(base.now().getTime() + days * DAY_MS) };
}

/** A clock a test sets and advances by hand. */
export function manualClock(start: Date): Clock & { set(at: Date): void; advance(ms: number): void } {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set: (next) => {
      at = next.getTime();
    },
    advance: (ms) => {
      at += ms;
    },
  };
}
