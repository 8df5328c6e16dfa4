import type { Client } from '@qiraa/app/testing';
import type { Sql } from '@qiraa/db';
import { expect } from 'vitest';

/** Fixtures of the import, approval and item specs: small grade 1 Arabic items that pass the filter. */

import { OPTIONS, type Row, SIGNOFF, SOURCE, STEM } from './importFixtures';

export { itemBody, OPTIONS, type Row, SIGNOFF, SOURCE, STEM, trainingItem } from './importFixtures';

let serial = 0;
/** A fresh external id (unique within the test process). */
export const freshId = (prefix: string) => `${prefix}-${process.pid}-${serial++}`;

export const passage = (externalId: string, over: Row = {}): Row => ({
  external_id: externalId,
  grade: 1,
  title_ar: 'في الحديقة',
  body_ar: 'ذهب سامي إلى الحديقة مع أبيه. رأى شجرة كبيرة وعصفورا صغيرا يغني.',
  ...over,
});

/**
 * A complete grade 1 BOY form: word_recognition (4 questions) and text1_comprehension (3 questions on one
 * passage), positions 1..n per measure.
 */
export function screeningFormBody(formId: string, over: { stemSuffix?: string; itemPrefix?: string } = {}): Row {
  const prefix = over.itemPrefix ?? formId;
  const passageId = `${prefix}-p1`;
  const word = (n: number): Row => ({
    external_id: `${prefix}-w${n}`,
    content_role: 'screening',
    grade: 1,
    sub_skill_id: 'fw_common_words',
    item_pattern: 'word_match',
    measure_code: 'word_recognition',
    form_id: formId,
    form_position: n,
    stem_ar: `${STEM}${over.stemSuffix ?? ''}`,
    options: OPTIONS,
    correct_option_key: 'a',
  });
  const text = (n: number): Row => ({
    external_id: `${prefix}-t${n}`,
    content_role: 'screening',
    grade: 1,
    sub_skill_id: 'lc_explicit_detail',
    item_pattern: 'passage_literal',
    measure_code: 'text1_comprehension',
    form_id: formId,
    form_position: n,
    passage_external_id: passageId,
    stem_ar: 'إلى أين ذهب سامي؟',
    options: [
      { key: 'a', text_ar: 'إلى الحديقة' },
      { key: 'b', text_ar: 'إلى السوق' },
    ],
    correct_option_key: 'a',
  });
  return {
    contentKind: 'screening_form',
    sourceDeclared: SOURCE,
    agreementSignoff: SIGNOFF,
    form: { external_id: formId, grade: 1, window: 'BOY' },
    passages: [passage(passageId)],
    items: [word(1), word(2), word(3), word(4), text(1), text(2), text(3)],
  };
}

/** Rows of a content table (to prove a refused write wrote nothing). */
export async function countOf(sql: Sql, table: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)}`;
  return row!.n;
}

/** POST /api/items/import expecting 201; the batch report. */
export async function imported(api: Client, body: Row) {
  const res = await api.post('/api/items/import', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** POST approve expecting 200. */
export async function approved(api: Client, batchId: string, exceptions?: string[]) {
  const res = await api.post(`/api/items/import/${batchId}/approve`, exceptions ? { exceptions } : {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
