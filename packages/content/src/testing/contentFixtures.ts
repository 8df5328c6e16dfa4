import type { AnySql } from '@qiraa/db';
import { newContentId } from '../ids';
import type { WindowCode } from '../queries/catalogTypes';

export * from './importFixtures';

/**
 * Test fixtures: screening forms, their items and passages, and blueprint cells written straight with SQL,
 * so the specs of forms, blueprint, preview and dry run do not depend on the import route.
 */

type FormStatus = 'draft' | 'operational' | 'retired';

export interface FormFixture {
  organizationId?: string | null;
  grade: number;
  window: WindowCode;
  status?: FormStatus;
  externalId?: string;
  version?: number;
  /** Questions per measure code, written at positions 1..n in this key order. */
  measures: Record<string, number>;
  /** Orders the operational forms of one cell ("newest" by approval). Default now. */
  approvedAt?: Date;
}

export interface InsertedForm {
  formId: string;
  externalId: string;
  /** Item ids per measure, index 0 at form position 1. */
  itemIds: Record<string, string[]>;
  /** The passage of each text measure (text1_comprehension, text2_comprehension). */
  passageIds: Record<string, string>;
}

// What an item of each measure looks like; text measures read a passage.
const ITEM_SHAPE: Record<string, { pattern: string; subSkill: string; passage: boolean }> = {
  word_recognition: { pattern: 'word_match', subSkill: 'fw_common_words', passage: false },
  text1_comprehension: { pattern: 'passage_literal', subSkill: 'lc_explicit_detail', passage: true },
  text2_comprehension: { pattern: 'passage_inference', subSkill: 'ic_main_idea', passage: true },
  spelling_choice: { pattern: 'spelling_choice', subSkill: 'sp_taa_forms', passage: false },
  root_identification: { pattern: 'root_choice', subSkill: 'ra_extract_root', passage: false },
};

const itemStatusOf = (form: FormStatus) =>
  form === 'operational' ? 'operational' : form === 'draft' ? 'pending_review' : 'retired';

// Array type oid: without it postgres.js can send a first-use or empty array untyped.
const TEXT_ARRAY = 1009;

let serial = 0;
const uniqueExternalId = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${serial++}`;

export async function insertPassage(
  sql: AnySql,
  input: { organizationId?: string | null; grade: number; status?: string },
): Promise<string> {
  const id = newContentId('psg');
  await sql`
    insert into content_passages (id, organization_id, external_id, version, grade, title_ar, body_ar, word_count,
                                  status, content_hash)
    values (${id}, ${input.organizationId ?? null}, ${uniqueExternalId('psg')}, 1, ${input.grade}, 'في الحديقة',
            'ذهب سامر إلى الحديقة ورأى شجرة كبيرة.', 7, ${input.status ?? 'operational'}, ${`hash-${id}`})`;
  return id;
}

export async function insertForm(sql: AnySql, input: FormFixture): Promise<InsertedForm> {
  const status = input.status ?? 'operational';
  const organizationId = input.organizationId ?? null;
  const formId = newContentId('frm');
  const externalId = input.externalId ?? uniqueExternalId('form');
  await sql`
    insert into content_screening_forms (id, organization_id, external_id, version, grade, window_code, status,
                                         content_hash, approved_at)
    values (${formId}, ${organizationId}, ${externalId}, ${input.version ?? 1}, ${input.grade}, ${input.window},
            ${status}, ${`hash-${formId}`},
            ${status === 'draft' ? null : (input.approvedAt ?? new Date())})`;
  const itemIds: Record<string, string[]> = {};
  const passageIds: Record<string, string> = {};
  for (const [measureCode, count] of Object.entries(input.measures)) {
    const shape = ITEM_SHAPE[measureCode] ?? { pattern: 'word_match', subSkill: 'fw_common_words', passage: false };
    const passageId = shape.passage
      ? await insertPassage(sql, { organizationId, grade: input.grade, status: itemStatusOf(status) })
      : null;
    if (passageId) passageIds[measureCode] = passageId;
    itemIds[measureCode] = [];
    for (let position = 1; position <= count; position++) {
      const id = newContentId('itm');
      itemIds[measureCode].push(id);
      const options = [
        { key: 'a', textAr: 'شجرة' },
        { key: 'b', textAr: 'بيت' },
        { key: 'c', textAr: 'قلم' },
      ];
      await sql`
        insert into content_items (id, organization_id, external_id, version, content_role, content_purpose, grade,
                                   sub_skill_id, item_pattern, measure_code, screening_form_id, form_position,
                                   passage_id, stem_ar, options, correct_option_key, status, content_hash)
        values (${id}, ${organizationId}, ${uniqueExternalId('itm')}, 1, 'screening', 'diagnostic', ${input.grade},
                ${shape.subSkill}, ${shape.pattern}, ${measureCode}, ${formId}, ${position}, ${passageId},
                ${`ماذا رأى سامر؟ (${measureCode} ${position})`}, ${sql.json(options)}, 'a', ${itemStatusOf(status)},
                ${`hash-${id}`})`;
    }
  }
  return { formId, externalId, itemIds, passageIds };
}

/** A blueprint cell row as stored, bypassing validation (for cells that today's rules would refuse). */
export async function insertBlueprintCell(
  sql: AnySql,
  input: {
    organizationId?: string | null;
    schoolId?: string | null;
    grade: number;
    window: WindowCode;
    kind: 'measures' | 'skills' | 'not_screened';
    measures?: string[];
    subSkillIds?: string[];
    acknowledgedProvisional?: boolean;
  },
): Promise<void> {
  await sql`
    insert into content_diagnostic_blueprint_cells (organization_id, school_id, grade, window_code, kind, measures,
                                                    sub_skill_ids, acknowledged_provisional)
    values (${input.organizationId ?? null}, ${input.schoolId ?? null}, ${input.grade}, ${input.window}, ${input.kind},
            ${sql.array(input.measures ?? [], TEXT_ARRAY)}, ${sql.array(input.subSkillIds ?? [], TEXT_ARRAY)}, ${input.acknowledgedProvisional ?? false})`;
}

/** Positions of one measure of a form, in position order, as stored. */
export async function formPositions(
  sql: AnySql,
  formId: string,
  measureCode: string,
): Promise<{ id: string; form_position: number; revision: number }[]> {
  return [
    ...(await sql<{ id: string; form_position: number; revision: number }[]>`
      select id, form_position, revision from content_items
      where screening_form_id = ${formId} and measure_code = ${measureCode} order by form_position`),
  ];
}
