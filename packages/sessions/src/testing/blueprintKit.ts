import { readFile } from 'node:fs/promises';
import type { Client } from '@qiraa/app/testing';

const PACK = new URL('../../../../content/pack/', import.meta.url);

/** The demo pack's blueprint import body (content/pack/session-blueprints.json). */
export const demoBlueprints = async () =>
  JSON.parse(await readFile(new URL('session-blueprints.json', PACK), 'utf8')) as {
    blueprints: Record<string, unknown>[];
  };

let n = 0;
/** A fresh blueprint (its own external id) in grade 2 on sb_word_building. */
export const blueprint = (overrides: Record<string, unknown> = {}) => ({
  externalId: `bp-${Date.now()}-${++n}`,
  grade: 2,
  theme: 'market',
  subSkillIds: ['sb_word_building'],
  targetMinutes: 15,
  titleAr: 'نَبْنِي الْكَلِمَاتِ',
  introAr: 'نَقْرَأُ ثُمَّ نَخْتَارُ الْجَوَابَ.',
  tags: ['phonics'],
  ...overrides,
});

/** Imports the blueprints through the route and approves the batch; returns the stored ids. */
export async function operationalBlueprints(api: Client, blueprints: object[], organizationId?: string) {
  const imported = await api.post('/api/session-blueprints/import', {
    ...(organizationId ? { organizationId } : {}),
    blueprints,
  });
  if (imported.statusCode !== 201) throw new Error(`blueprint import: ${imported.statusCode} ${imported.body}`);
  const { batchId, rows } = imported.json() as { batchId: string; rows: { blueprintId: string | null }[] };
  const approved = await api.post(`/api/session-blueprints/${batchId}/approve`);
  if (approved.statusCode !== 200) throw new Error(`blueprint approve: ${approved.statusCode} ${approved.body}`);
  return { batchId, ids: rows.map((r) => r.blueprintId!) };
}
