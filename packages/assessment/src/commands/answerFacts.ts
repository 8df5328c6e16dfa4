import { answerKeyQuery, type ServedItemRow, servedItemQuery } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { type RowFold, type SittingRow, sittingColumns, sittingOfRow } from '../queries/readSitting';
import { type WindowFacts, type WindowFactsRow, windowFactsColumns, windowFactsOf } from '../queries/windowState';

/** The answered item as the decision needs it: its tenant, its options and the correct one. */
export interface AnsweredItem {
  organizationId: string | null;
  correctOptionKey: string;
  optionKeys: string[];
}

/** Everything an answer is decided on, read in one statement. */
export interface AnswerFacts {
  /** null when there is no item with the answered id. */
  item: AnsweredItem | null;
  /** The sitting's read model row (null when there is none); `streamVersion` null: fold the stream instead. */
  sitting: (RowFold & { organizationId: string }) | null;
  /** The window facts of the sitting's organization and academic year (empty without a sitting). */
  window: WindowFacts;
  /** The question the plan serves after the answered one (null after the last), for the response. */
  next: ServedItemRow | null;
}

type Row = Partial<SittingRow> &
  WindowFactsRow & {
    item: { organization_id: string | null; correct_option_key: string; keys: string[] } | null;
    next: ServedItemRow | null;
  };

/**
 * One round trip for the answer route and command: the sitting's row from `asm_sittings` (with the stream
 * version it reflects), the answered item, the window facts and the question served after the answered one
 * (the plan's next; JSON, so its timestamps are strings: the student view reads none of them). The row is written in the same transaction as
 * every append to its stream (recordEvidence), so it is the stream's fold at `stream_version`; the append
 * expects that version, so a decision on a row that fell behind is refused by the store and taken again.
 */
export async function readAnswerFacts(sql: AnySql, attemptId: string, itemId: string): Promise<AnswerFacts> {
  const [row] = await sql<Row[]>`
    select ${sittingColumns(sql)},
      (${answerKeyQuery(sql, itemId)}) as item,
      ${windowFactsColumns(sql, sql`s.organization_id`, sql`s.academic_year`)},
      (select row_to_json(x) from (
         ${servedItemQuery(sql, sql`n.q->>'itemId'`, sql`n.q->>'passageId'`)}) x)
        as next
    from (select 1) as one
    left join asm_sittings s on s.attempt_id = ${attemptId}
    left join lateral (
      select q from jsonb_array_elements(s.started->'plan') with ordinality as p(q, ord)
      where p.ord = (select a.ord + 1 from jsonb_array_elements(s.started->'plan') with ordinality as a(q, ord)
                     where a.q->>'itemId' = ${itemId} limit 1)) n on true`;
  const r = row!;
  return {
    item: r.item && {
      organizationId: r.item.organization_id,
      correctOptionKey: r.item.correct_option_key,
      optionKeys: r.item.keys,
    },
    sitting: r.attempt_id ? { ...sittingOfRow(r as SittingRow), organizationId: r.organization_id! } : null,
    window: windowFactsOf(r),
    next: r.next,
  };
}
