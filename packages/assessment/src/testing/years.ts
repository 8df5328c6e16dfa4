import { dayIn } from '../queries/windowState';

/** Today in the organizations' default time zone, and the academic year (August to July) it falls in. */
export function yearsAround(now = new Date()) {
  const today = dayIn(now, 'Asia/Amman');
  const y = Number(today.slice(0, 4));
  const first = today.slice(5) >= '08-01' ? y : y - 1;
  return {
    today,
    current: `${first}-${first + 1}`,
    /** All of its windows lie ahead: none is open by calendar, each can be opened by hand. */
    next: `${first + 1}-${first + 2}`,
  };
}

const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A valid calendar of the current academic year whose window `open` (returned) holds today. */
export function calendarOpenToday(now = new Date()) {
  const { today, current } = yearsAround(now);
  const aug1 = `${current.slice(0, 4)}-08-01`;
  const jul31 = `${current.slice(5)}-07-31`;
  if (today >= plusDays(aug1, 2)) {
    return {
      open: 'EOY' as const,
      windows: [
        { window: 'BOY' as const, startsOn: aug1, endsOn: aug1 },
        { window: 'MOY' as const, startsOn: plusDays(aug1, 1), endsOn: plusDays(aug1, 1) },
        { window: 'EOY' as const, startsOn: plusDays(aug1, 2), endsOn: jul31 },
      ],
    };
  }
  return {
    open: 'BOY' as const,
    windows: [
      { window: 'BOY' as const, startsOn: aug1, endsOn: plusDays(aug1, 1) },
      { window: 'MOY' as const, startsOn: plusDays(aug1, 2), endsOn: plusDays(aug1, 2) },
      { window: 'EOY' as const, startsOn: plusDays(aug1, 3), endsOn: jul31 },
    ],
  };
}
