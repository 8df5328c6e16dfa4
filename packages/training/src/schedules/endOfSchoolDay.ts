import { holidayOrganizationsQuery } from '@qiraa/gamification';
import { organizationsInTimeZoneQuery } from '@qiraa/identity';
import { defineSchedule } from '@qiraa/kernel';
import { endOpenDays } from './endOpenDays';

/**
 * At the end of a school day (SCHOOL_DAY_END_HOUR in the organization's time zone, Sunday to Thursday, not one
 * of the organization's holidays), every training day of that school day or earlier still open ends
 * `window_closed`: the child left it, and TAL-01 then counts it like any other ended day. Idempotent over the
 * whole state (after downtime the latest tick also ends the days of the missed ones).
 */
export const endOfSchoolDaySchedule = defineSchedule({
  name: 'training.end-of-school-day',
  cadence: 'school_day_end',
  description: 'open training days of the school day end window_closed',
  async run(deps, tick) {
    if (tick.timeZone === null || tick.schoolDay === null) return { endedDays: 0 };
    const open = await deps.sql<{ day_id: string }[]>`
      select d.day_id from trn_days d
      where d.ended_at is null and d.school_day <= ${tick.schoolDay}
        and d.organization_id in (${organizationsInTimeZoneQuery(deps.sql, tick.timeZone)})
        and d.organization_id not in (${holidayOrganizationsQuery(deps.sql, tick.schoolDay)})
      order by d.opened_at`;
    return {
      endedDays: await endOpenDays(
        deps,
        open.map((r) => r.day_id),
        tick.dueAt,
      ),
    };
  },
});
