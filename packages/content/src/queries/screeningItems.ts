import type { AnySql } from '@qiraa/db';
import type postgres from 'postgres';
import { type ItemRowDb, itemColumns } from './itemViews';

/** A value, or a column of the caller's query (a fragment), where a fragment below takes an id. */
type IdOrColumn = postgres.Fragment | string;

/** A served question's item row with its passage (null without one), as `servedItemQuery` selects it. */
export type ServedItemRow = ItemRowDb & { passage_json: { id: string; title_ar: string; body_ar: string } | null };

/**
 * Content's fragments for the screening write path, which must stay one statement per answer: the caller
 * embeds them in its own query. `servedItemQuery` selects one `ServedItemRow`; `answerKeyQuery` one json
 * value `{ organization_id, correct_option_key, keys }`.
 */
export const servedItemQuery = (sql: AnySql, itemId: IdOrColumn, passageId: IdOrColumn | null) => sql`
  select ${itemColumns(sql)},
    (select json_build_object('id', p.id, 'title_ar', p.title_ar, 'body_ar', p.body_ar)
     from content_passages p where p.id = ${passageId}) as passage_json
  from content_items where id = ${itemId}`;

export const answerKeyQuery = (sql: AnySql, itemId: IdOrColumn) => sql`
  select json_build_object('organization_id', i.organization_id, 'correct_option_key', i.correct_option_key,
                           'keys', (select coalesce(json_agg(o->>'key'), '[]') from jsonb_array_elements(i.options) o))
  from content_items i where i.id = ${itemId}`;

/** The items of these screening forms for these measures (and sub-skills, when given), by form position. */
export function screeningFormItems(
  sql: AnySql,
  formIds: readonly string[],
  measureCodes: readonly string[],
  subSkillIds: readonly string[] | null,
) {
  return sql<ItemRowDb[]>`
    select ${itemColumns(sql)} from content_items
    where screening_form_id = any(${sql.array([...formIds], 1009)}::text[])
      and measure_code = any(${sql.array([...measureCodes], 1009)}::text[])
      ${subSkillIds ? sql`and sub_skill_id = any(${sql.array([...subSkillIds], 1009)}::text[])` : sql``}
    order by form_position`;
}
