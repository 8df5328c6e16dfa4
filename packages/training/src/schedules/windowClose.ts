import { endWithWindow, windowCalendarState } from '@qiraa/assessment';
import { activeOrganizations } from '@qiraa/identity';
import { addDays, defineSchedule, localInstant } from '@qiraa/kernel';
import { academicYearOf, schoolDayOf } from '../engine/schoolDay';
import { endOpenDays } from './endOpenDays';

/** A close older than this is not looked at again (everything it ended has long been ended). */
const LOOK_BACK_MS = 8 * 86_400_000;

/**
 * When a screening window closes (its calendar end passes, or an administrator closes it early through
 * `POST …/windows/{window}/close`, which runs this at once), its open digital sittings end
 * `SittingStopped { reason: window_closed }` and the organization's training days opened before the close and
 * still open end `window_closed`. Idempotent: what already ended is skipped, so hourly looks at every close of
 * the last week change nothing twice.
 */
export const windowCloseSchedule = defineSchedule({
  name: 'training.window-close',
  cadence: 'hourly',
  description: 'at a screening window’s close, open sittings and training days end window_closed',
  async run(deps, tick) {
    const now = tick.dueAt;
    const orgs = await activeOrganizations(deps.sql);
    let stoppedSittings = 0;
    let endedDays = 0;
    for (const org of orgs) {
      const year = academicYearOf(schoolDayOf(now, org.timeZone));
      const state = await windowCalendarState(deps.sql, org.id, year, now);
      for (const w of state.windows) {
        if (w.open) continue;
        const closedAt = w.closedEarly ? new Date(w.closedAt!) : localInstant(addDays(w.endsOn, 1), 0, org.timeZone);
        if (closedAt > now || closedAt.getTime() < now.getTime() - LOOK_BACK_MS) continue;
        const end = { organizationId: org.id, academicYear: year, window: w.window, at: closedAt };
        stoppedSittings += (await endWithWindow(deps, end)).stoppedSittings;
        const open = await deps.sql<{ day_id: string }[]>`
          select day_id from trn_days
          where organization_id = ${org.id} and ended_at is null and opened_at < ${closedAt} order by opened_at`;
        endedDays += await endOpenDays(
          deps,
          open.map((r) => r.day_id),
          closedAt,
        );
      }
    }
    return { stoppedSittings, endedDays };
  },
});
