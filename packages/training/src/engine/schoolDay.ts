const formats = new Map<string, Intl.DateTimeFormat>();

/** The school day (YYYY-MM-DD) of an instant in the organization's time zone. */
export function schoolDayOf(at: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(at);
}

/** The academic year of a school day: it turns on 1 August (`2026-08-01` → `2026-2027`). */
export function academicYearOf(schoolDay: string): string {
  const year = Number(schoolDay.slice(0, 4));
  const month = Number(schoolDay.slice(5, 7));
  return month >= 8 ? `${year}-${year + 1}` : `${year - 1}-${year}`;
}
