/** Today's calendar date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The `count` most recent school days up to today in `timeZone`, oldest first. Fridays and Saturdays are
 * weekends (the rule set's calendar); the bench organization configures no holidays.
 */
export function recentSchoolDays(count: number, timeZone: string, now = new Date()): string[] {
  const days: string[] = [];
  const cursor = new Date(`${todayIn(timeZone, now)}T00:00:00Z`);
  while (days.length < count) {
    const weekday = cursor.getUTCDay();
    if (weekday !== 5 && weekday !== 6) days.push(cursor.toISOString().slice(0, 10));
    cursor.setUTCDate(cursor.getUTCDate() - 1);
  }
  return days.reverse();
}
