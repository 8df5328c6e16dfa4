import type { TransactionSql } from '@qiraa/db';
import { unprocessable } from '@qiraa/http-kit';
import { organizationTimeZone } from '@qiraa/identity';
import { schoolDayOf } from '../engine/schoolDay';

/** A send's window must hold one whole training day: the 17-minute active-time cap and a few minutes to start. */
export const MIN_SEND_WINDOW_MINUTES = 20;

/**
 * The instant a send's window ends, in the organization's time zone: `untilDate` at `untilTime`, or the end of
 * `untilDate` without a time. Refusals in order: a past day or a past instant 422 `window_already_over`; today
 * without a time 422 `until_time_required` (the end of today is rarely meant); less than 20 minutes left 422
 * `window_too_short`.
 */
export async function sendWindowOf(
  tx: TransactionSql,
  organizationId: string,
  body: { untilDate: string; untilTime?: string },
  /** The clock's now (the caller's `deps.clock` reading). */
  now: Date,
): Promise<{ untilAt: Date; timeZone: string; today: string }> {
  const timeZone = (await organizationTimeZone(tx, organizationId)) ?? 'Asia/Amman';
  const today = schoolDayOf(now, timeZone);
  if (body.untilDate < today) throw unprocessable('window_already_over', 'the window ended already');
  if (body.untilDate === today && body.untilTime === undefined) {
    throw unprocessable('until_time_required', 'a window ending today needs untilTime', [
      { field: 'untilTime', issue: 'required when untilDate is today' },
    ]);
  }
  const [row] = await tx<{ until_at: Date }[]>`
    select case when ${body.untilTime ?? null}::time is null
                then (${body.untilDate}::date + 1)::timestamp at time zone ${timeZone}
                else (${body.untilDate}::date + ${body.untilTime ?? '00:00'}::time) at time zone ${timeZone} end as until_at`;
  const untilAt = row!.until_at;
  if (untilAt.getTime() <= now.getTime()) throw unprocessable('window_already_over', 'the window ended already');
  if (untilAt.getTime() - now.getTime() < MIN_SEND_WINDOW_MINUTES * 60_000) {
    throw unprocessable('window_too_short', `the window must leave at least ${MIN_SEND_WINDOW_MINUTES} minutes`);
  }
  return { untilAt, timeZone, today };
}
