import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { Projector } from '@qiraa/projections';
import { endDay, startLevel } from '@qiraa/training/alerts-testing';
import type { FastifyInstance } from 'fastify';

/** Ids of an organization's training alerts part: a support group and an open alert of its student. */
export interface TrainingIds {
  groupId: string;
  alertId: string;
}

export const NO_TRAINING_IDS: TrainingIds = {
  groupId: '00000000-0000-4000-8000-000000000000',
  alertId: '00000000-0000-4000-8000-000000000000',
};

/**
 * A training item the class's grade can be served, the teacher's support group holding the student, and one `no_progress_at_level` alert of that student (three
 * bad ended days at level 2, driven through the training events and the alerts reactor): what `groupId` and
 * `{alertId}` name, so valid requests reach the commands and tenant probes name organization B's.
 */
export async function seedTraining(
  app: FastifyInstance,
  sql: Sql,
  runtime: { store: EventStore; projector: Projector },
  org: { id: string; studentId: number; teacherToken: string },
): Promise<TrainingIds> {
  // One operational training item of the organization (grade 2, familiar word reading): a send has content.
  await sql`
    insert into content_items (id, organization_id, external_id, version, content_role, content_purpose, grade,
      sub_skill_id, item_pattern, training_level, stem_ar, options, correct_option_key, status, content_hash)
    values (${`itm_fuzz_training_${org.id}`.slice(0, 60)}, ${org.id}, 'fuzz-training-1', 1, 'target_training',
      'training', 2, 'fw_common_words', 'word_match', 1, 'اختر الكلمة', '[{"key":"a","textAr":"باب"}]', 'a',
      'operational', 'fuzz')
    on conflict do nothing`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/training/groups',
    payload: { nameAr: 'مجموعة الدعم', studentIds: [org.studentId] },
    headers: { authorization: `Bearer ${org.teacherToken}` },
  });
  if (res.statusCode !== 201)
    throw new Error(`fuzz world: POST /api/training/groups answered ${res.statusCode}: ${res.body}`);
  const place = {
    studentId: org.studentId,
    organizationId: org.id,
    skillId: 'familiar_word_reading',
    measureCode: 'word_recognition',
  };
  await startLevel(runtime.store, place, 2, '2026-10-04');
  for (const date of ['2026-10-05', '2026-10-06', '2026-10-07']) await endDay(runtime.store, place, 2, date, 5, 1);
  await runtime.projector.catchUp();
  const alerts = await app.inject({
    method: 'GET',
    url: `/api/training/alerts?groupId=${res.json().groupId}`,
    headers: { authorization: `Bearer ${org.teacherToken}` },
  });
  const alertId = alerts.json().items?.[0]?.alertId;
  if (typeof alertId !== 'string') throw new Error(`fuzz world: no training alert raised: ${alerts.body}`);
  return { groupId: res.json().groupId, alertId };
}
