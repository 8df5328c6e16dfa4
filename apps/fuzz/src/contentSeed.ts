import { itemBody, trainingItem } from '@qiraa/content/testing';
import type { FastifyInstance } from 'fastify';

/** Content fixtures that pass the language filter (the same words the content specs use). */
const READING_NOTE = 'يقرأ الطفل الكلمات من اليمين إلى اليسار، ويشير المعلم إلى كل كلمة';
const PASSAGE = 'ذهب سامي إلى الحديقة مع أبيه. رأى شجرة كبيرة وعصفورا صغيرا يغني.';
const FAMILIAR_G1 = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر'];

/** Ids of content an organization owns: what `{id}` / `{batchId}` paths of content routes name. */
export interface ContentIds {
  wordListId: string;
  batchId: string;
  itemId: string;
  /** An operational passage (a content bundle's), for the routes naming `passageId`. */
  passageId: string;
}

async function post(app: FastifyInstance, token: string, url: string, payload: unknown) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.statusCode >= 300) throw new Error(`fuzz world: POST ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json() as Record<string, unknown>;
}

/**
 * A word list, an item (from an approved import) and a pending import batch, owned by the admin's
 * organization: the content routes' `{id}` and `{batchId}` then name real rows of A (valid requests) and B
 * (tenant probes).
 */
export async function seedContent(app: FastifyInstance, adminToken: string, tag: string): Promise<ContentIds> {
  const list = await post(app, adminToken, '/api/admin/word-lists', {
    externalId: `fuzz-${tag}`,
    grade: 1,
    skillId: 'familiar_word_reading',
    window: 'BOY',
    words: FAMILIAR_G1,
    readingNoteAr: READING_NOTE,
  });
  const done = await post(app, adminToken, '/api/items/import', itemBody([trainingItem(`fuzz-item-${tag}`)]));
  await post(app, adminToken, `/api/items/import/${done.batchId}/approve`, {});
  const pending = await post(app, adminToken, '/api/items/import', itemBody([trainingItem(`fuzz-pending-${tag}`)]));
  const passageId = await seedPassage(app, adminToken, tag);
  const rows = (done.rows ?? []) as Array<Record<string, unknown>>;
  let itemId = rows.find((r) => typeof r.itemId === 'string')?.itemId as string | undefined;
  if (!itemId) {
    const res = await app.inject({
      method: 'GET',
      url: '/api/items?status=all&view=authoring&limit=100',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const items = (res.json() as { items: Array<{ id: string; externalId: string }> }).items;
    itemId = items.find((i) => i.externalId === `fuzz-item-${tag}`)?.id;
  }
  if (!itemId) throw new Error('fuzz world: the imported item has no id');
  return { wordListId: String(list.id), batchId: String(pending.batchId), itemId, passageId };
}

/** A passage with one item reading it, imported as a content bundle and approved (so operational). */
async function seedPassage(app: FastifyInstance, adminToken: string, tag: string): Promise<string> {
  const externalId = `fuzz-passage-${tag}`;
  const linked = {
    item_pattern: 'passage_literal',
    sub_skill_id: 'lc_explicit_detail',
    passage_external_id: externalId,
  };
  const bundle = itemBody([trainingItem(`fuzz-passage-item-${tag}`, linked)], {
    contentKind: 'content_bundle',
    passages: [{ external_id: externalId, grade: 1, title_ar: 'في الحديقة', body_ar: PASSAGE }],
  });
  const done = await post(app, adminToken, '/api/items/import', bundle);
  await post(app, adminToken, `/api/items/import/${done.batchId}/approve`, {});
  const passageId = ((done.rows ?? []) as Array<Record<string, unknown>>)[0]?.passageId;
  if (typeof passageId !== 'string') throw new Error('fuzz world: the imported passage has no id');
  return passageId;
}
