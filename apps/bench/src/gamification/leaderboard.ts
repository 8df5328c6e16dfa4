import { performance } from 'node:perf_hooks';
import { inTransaction, type Sql } from '@qiraa/db';
import { MASTERY_EVENT_SOURCE_KINDS } from '@qiraa/gamification';
import { percentile } from '../measure';
import { throwIfInterrupted } from './interruption';

const CHUNK = 250_000;

/**
 * `total` mastery events written straight into gam_mastery_events (the read model the boards read) for the
 * school's active students: valid source kinds, school days (no Friday or Saturday) spread over the last
 * `days` calendar days in the organization's time zone, a session per student and day, unique
 * engine_event_id. Students are skewed (some far more active than others) so the board has an order.
 */
export async function seedBoardEvents(
  sql: Sql,
  scope: { schoolId: string; organizationId: string },
  total: number,
  days: number,
  onProgress: (done: number) => void,
): Promise<void> {
  const kinds = sql.array([...MASTERY_EVENT_SOURCE_KINDS]);
  for (let from = 0; from < total; from += CHUNK) {
    throwIfInterrupted();
    const to = Math.min(total, from + CHUNK) - 1;
    await sql`
      with roster as (
        select array_agg(distinct cs.student_user_id order by cs.student_user_id) as ids
        from class_students cs join classes c on c.id = cs.class_id
        where c.school_id = ${scope.schoolId} and cs.active
      ),
      org as (
        select o.time_zone as tz, (now() at time zone o.time_zone)::date as today
        from organizations o where o.id = ${scope.organizationId}
      ),
      calendar as (
        select array_agg(d::date order by d) as list
        from org, generate_series(org.today - ${days - 1}::int, org.today, interval '1 day') d
        where extract(isodow from d) not in (5, 6)
      ),
      draws as (
        select g, random() as u_student, random() as u_day, random() as u_kind, random() as u_minute
        from generate_series(${from}::int, ${to}::int) g
      ),
      picked as (
        select d.g,
          r.ids[1 + floor(power(d.u_student, 1.5) * cardinality(r.ids))::int] as student_id,
          cal.list[1 + floor(d.u_day * cardinality(cal.list))::int] as school_day,
          (${kinds}::text[])[1 + floor(d.u_kind * ${MASTERY_EVENT_SOURCE_KINDS.length}::int)::int] as source_kind,
          floor(d.u_minute * 360)::int as minute,
          org.tz
        from draws d cross join roster r cross join calendar cal cross join org
      )
      insert into gam_mastery_events
        (id, student_id, organization_id, source_kind, skill_id, measure_code, school_day, session_id,
         engine_event_id, occurred_at, recorded_at)
      select gen_random_uuid(), p.student_id, ${scope.organizationId}, p.source_kind,
        case when p.source_kind <> 'cbm_trend_above_goal' then 'skill-' || (p.g % 41) end,
        case when p.source_kind = 'cbm_trend_above_goal' then 'orf_wcpm' end,
        p.school_day, 'board-' || p.student_id || '-' || p.school_day, 'bench-board-' || p.g,
        (p.school_day + time '07:30' + make_interval(mins => p.minute)) at time zone p.tz,
        (p.school_day + time '07:30' + make_interval(mins => p.minute + 1)) at time zone p.tz
      from picked p
      order by p.student_id, p.school_day`;
    onProgress(to + 1);
  }
  await fillDayRollup(sql, scope.schoolId);
  // VACUUM as well as ANALYZE: autovacuum keeps an older table's visibility map set, which the boards'
  // index-only scans rely on; straight after a bulk load it is empty and every row costs a heap visit.
  await sql`vacuum analyze gam_mastery_events`;
  await sql`vacuum analyze gam_mastery_day_counts`;
  await sql`analyze users`;
  await sql`analyze class_students`;
  await sql`analyze classes`;
}

/**
 * The rows were written behind the projection, so its cumulative day rollup (what the boards read) is
 * recomputed for the school's students the way migration 0013 fills it.
 */
async function fillDayRollup(sql: Sql, schoolId: string): Promise<void> {
  const kinds = MASTERY_EVENT_SOURCE_KINDS;
  await inTransaction(sql, async ({ sql: tx }) => {
    const roster = tx`
      select cs.student_user_id from class_students cs join classes c on c.id = cs.class_id
      where c.school_id = ${schoolId} and cs.active`;
    await tx`delete from gam_mastery_day_counts where student_id in (${roster})`;
    await tx`
      insert into gam_mastery_day_counts (student_id, school_day, total, ${tx.unsafe(kinds.join(', '))})
      select student_id, school_day, sum(count(*)) over w,
        ${tx.unsafe(kinds.map((k) => `sum(count(*) filter (where source_kind = '${k}')) over w`).join(', '))}
      from gam_mastery_events where student_id in (${roster})
      group by student_id, school_day
      window w as (partition by student_id order by school_day)`;
  });
}

/**
 * Baseline: the board as it was counted before the rollup (a range scan per student over the raw rows,
 * gam_mastery_events_student_day_idx), as one SQL statement in process, timed like the HTTP board.
 */
export async function timeRawCountBoard(
  sql: Sql,
  scope: { schoolId: string; organizationId: string },
  windowDays: number,
  runs: number,
): Promise<{ p50Ms: number; p95Ms: number }> {
  const query = () => sql`
    with b as (
      select (now() at time zone o.time_zone)::date as today from organizations o where o.id = ${scope.organizationId}
    ),
    roster as (
      select distinct cs.student_user_id as student_id
      from class_students cs join classes c on c.id = cs.class_id
      where c.school_id = ${scope.schoolId} and cs.active
    )
    select r.student_id, k.*
    from roster r cross join b
    cross join lateral (
      select count(*)::int as total,
        ${sql.unsafe(MASTERY_EVENT_SOURCE_KINDS.map((k) => `count(*) filter (where e.source_kind = '${k}')::int as ${k}`).join(', '))}
      from gam_mastery_events e
      where e.student_id = r.student_id and e.school_day between b.today - ${windowDays - 1}::int and b.today
    ) k`;
  for (let i = 0; i < 3; i++) await query();
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    throwIfInterrupted();
    const t0 = performance.now();
    await query();
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return { p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) };
}

/** What the board must show: the window's event count over the school's students, counted directly. */
export async function expectedWindowTotal(sql: Sql, schoolId: string, organizationId: string, windowDays: number) {
  const [row] = await sql<{ n: number }[]>`
    with org as (select (now() at time zone o.time_zone)::date as today from organizations o where o.id = ${organizationId})
    select count(*)::int as n from gam_mastery_events e, org
    where e.student_id in (
        select cs.student_user_id from class_students cs join classes c on c.id = cs.class_id
        where c.school_id = ${schoolId} and cs.active)
      and e.school_day between org.today - ${windowDays - 1}::int and org.today`;
  return row!.n;
}

export interface BoardTiming {
  windowDays: number;
  runs: number;
  entries: number;
  windowEvents: number;
  responseBytes: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

interface SchoolBoard {
  scope: string;
  windowDays: number;
  entries: Array<{ studentId: number; masteryEventCount: number }>;
}

/**
 * GET /api/leaderboards/school/{schoolId}?windowDays=… through HTTP, one request at a time: 3 untimed
 * warm-ups, then `runs` timed ones (request sent to body parsed). The board must list every student and
 * add up to the window's events.
 */
export async function timeSchoolBoard(
  baseUrl: string,
  token: string,
  scope: { schoolId: string; organizationId: string; students: number },
  windowDays: number,
  runs: number,
  expectedTotal: number,
): Promise<BoardTiming> {
  const path = `/api/leaderboards/school/${scope.schoolId}?windowDays=${windowDays}`;
  const fetchBoard = async () => {
    throwIfInterrupted();
    const t0 = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    const ms = performance.now() - t0;
    if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return { ms, text, board: JSON.parse(text) as SchoolBoard };
  };
  for (let i = 0; i < 3; i++) await fetchBoard();
  const latencies: number[] = [];
  let last: Awaited<ReturnType<typeof fetchBoard>> | undefined;
  for (let i = 0; i < runs; i++) {
    last = await fetchBoard();
    latencies.push(last.ms);
  }
  const board = last!.board;
  const sum = board.entries.reduce((acc, e) => acc + e.masteryEventCount, 0);
  if (board.scope !== 'school' || board.windowDays !== windowDays || board.entries.length !== scope.students) {
    throw new Error(`school board: scope ${board.scope}, window ${board.windowDays}, ${board.entries.length} entries`);
  }
  if (sum !== expectedTotal)
    throw new Error(`school board counts ${sum} events in ${windowDays} days, expected ${expectedTotal}`);
  latencies.sort((a, b) => a - b);
  return {
    windowDays,
    runs,
    entries: board.entries.length,
    windowEvents: sum,
    responseBytes: Buffer.byteLength(last!.text),
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    maxMs: latencies[latencies.length - 1]!,
  };
}
