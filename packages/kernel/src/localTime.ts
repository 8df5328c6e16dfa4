const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `at` in `timeZone`: its date `YYYY-MM-DD`, hour 0-23 and the zone's offset then. */
export function wallClockIn(at: Date, timeZone: string): { day: string; hour: number; offsetMs: number } {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
  const wall = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return {
    day: `${p.year}-${p.month}-${p.day}`,
    hour: Number(p.hour),
    offsetMs: wall - Math.floor(at.getTime() / 1000) * 1000,
  };
}

/** The instant a local wall-clock hour of a day happens in `timeZone` (the zone's offset at that hour). */
export function localInstant(day: string, hour: number, timeZone: string): Date {
  const guess = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  const first = guess - wallClockIn(new Date(guess), timeZone).offsetMs;
  return new Date(guess - wallClockIn(new Date(first), timeZone).offsetMs);
}

/** `YYYY-MM-DD` plus `n` calendar days. */
export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
