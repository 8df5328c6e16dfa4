import type { AnySql } from '@qiraa/db';
import { validationFailed } from '@qiraa/http-kit';
import { type EventItem, type EventItemRow, eventItemColumns, toEventItem } from './eventItem';

export const EXPLAINED = ['xpBalance', 'badges', 'skillStatus', 'trainingLevel'] as const;
export type Explained = (typeof EXPLAINED)[number];

export interface Explanation {
  what: Explained;
  value: unknown;
  /** For xpBalance each event carries `delta`, and the deltas sum to `value`. */
  events: Array<EventItem & { delta?: number }>;
}

const streamEvents = (sql: AnySql, streamIds: readonly string[]) =>
  sql<EventItemRow[]>`
    select ${eventItemColumns(sql)} from es_events e
    where e.stream_id = any(${sql.array(streamIds as string[])}::text[])
    order by e.transaction_id, e.global_position`;

/** One top-level field of any event's data (an auditor's view spans every context's events), or undefined. */
const fieldOf = (data: unknown, key: string): unknown =>
  typeof data === 'object' && data !== null ? Reflect.get(data, key) : undefined;

const eventsById = (sql: AnySql, ids: readonly string[]) =>
  sql<EventItemRow[]>`
    select ${eventItemColumns(sql)} from es_events e
    where e.event_id = any(${sql.array(ids as string[])}::uuid[])
    order by e.transaction_id, e.global_position`;

/**
 * A derived value as its read model holds it, beside the events that produced it (docs/auditing.md). The
 * read models are the gamification, decisions and training contexts' tables, read here and never written;
 * the streams are those contexts' per-student streams (`xp-`, `badgeaward-`, `badgerescind-`, `decision-`,
 * `traininglevel-`). A projection that lags shows as a value that its events do not (yet) add up to.
 */
export async function explain(
  sql: AnySql,
  studentId: number,
  what: Explained,
  subSkillId: string | undefined,
): Promise<Explanation> {
  switch (what) {
    case 'xpBalance': {
      const [row] = await sql<{ balance: number }[]>`
        select coalesce(sum(amount), 0)::int as balance from gam_xp_ledger where student_id = ${studentId}`;
      const events = (await streamEvents(sql, [`xp-${studentId}`])).map((r) => ({
        ...toEventItem(r),
        delta: Number(fieldOf(r.data, 'amount') ?? 0),
      }));
      return { what, value: row?.balance ?? 0, events };
    }
    case 'badges': {
      const rows = await sql<{ code: string }[]>`
        select a.code from gam_badge_awards a
        where a.student_id = ${studentId}
          and not exists (select 1 from gam_badge_rescinds r where r.student_badge_id = a.id)
        order by a.code`;
      const events = await streamEvents(sql, [`badgeaward-${studentId}`, `badgerescind-${studentId}`]);
      return { what, value: rows.map((r) => r.code), events: events.map(toEventItem) };
    }
    case 'skillStatus': {
      const skill = required(subSkillId);
      const [row] = await sql<
        {
          status: string | null;
          decision_id: string;
          evidence_event_ids: string[];
          void_event_ids: string[];
        }[]
      >`
        select status, decision_id::text as decision_id, evidence_event_ids::text[] as evidence_event_ids,
               void_event_ids::text[] as void_event_ids
        from dec_skill_status where student_id = ${studentId} and sub_skill_id = ${skill}
        order by decided_at desc, stream_version desc limit 1`;
      if (!row) return { what, value: null, events: [] };
      // The deciding event, then the evidence it weighed and the voids it honoured, in commit order.
      const events = await eventsById(sql, [row.decision_id, ...row.evidence_event_ids, ...row.void_event_ids]);
      return { what, value: row.status, events: events.map(toEventItem) };
    }
    case 'trainingLevel': {
      const skill = required(subSkillId);
      const [row] = await sql<{ level: number }[]>`
        select level from trn_levels where student_id = ${studentId} and skill_id = ${skill}
        order by academic_year desc limit 1`;
      const events = (await streamEvents(sql, [`traininglevel-${studentId}`])).filter(
        (e) => fieldOf(e.data, 'skillId') === skill,
      );
      return { what, value: row?.level ?? null, events: events.map(toEventItem) };
    }
  }
}

function required(subSkillId: string | undefined): string {
  if (!subSkillId)
    throw validationFailed([{ field: 'subSkillId', issue: 'required for skillStatus and trainingLevel' }]);
  return subSkillId;
}
