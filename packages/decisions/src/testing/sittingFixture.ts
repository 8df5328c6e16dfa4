import { randomUUID } from 'node:crypto';
import {
  type AttemptHeader,
  type DigitalSittingStarted,
  recordEvidence,
  SITTING_ANSWER_RECORDED,
  SITTING_COMPLETED,
  SITTING_STARTED,
  streams,
} from '@qiraa/assessment';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { ProbePlace } from './orfProbeFixture';

/** One question of a fixture sitting: its sub-skill, the catalog measure it belongs to, answered right or not. */
export interface FixtureQuestion {
  subSkillId: string;
  measureCode: string;
  correct: boolean;
}

/**
 * A completed BOY digital sitting as the sitting commands write it (started with a plan, answered, completed),
 * whose plan holds exactly these questions: the profile specs choose each sub-skill's percent correct without
 * importing a screening form. No cut version is pinned (measure levels are null; the statuses come from SSR-01).
 */
export async function recordSitting(
  deps: { sql: Sql; store: EventStore },
  place: ProbePlace,
  questions: readonly FixtureQuestion[],
): Promise<string> {
  const attemptId = randomUUID();
  const header: AttemptHeader = {
    attemptId,
    kind: 'digital_sitting',
    cell: 'digital',
    organizationId: place.organizationId,
    schoolId: place.schoolId,
    classId: place.classId,
    studentId: place.studentId,
    grade: place.grade ?? 2,
    academicYear: place.academicYear ?? '2026-2027',
    window: 'BOY',
    startedAt: new Date().toISOString(),
    startedBy: place.studentId,
    supersedesVoidId: null,
  };
  const measures = [...new Set(questions.map((q) => q.measureCode))];
  const started = {
    ...header,
    mode: 'window',
    measures,
    plan: questions.map((q, i) => ({
      itemId: `itm_profile_${i}`,
      itemVersion: 1,
      measureCode: q.measureCode,
      sectionKey: 'words' as const,
      formId: 'frm_profile_fixture',
      formPosition: i + 1,
      passageId: null,
      itemPattern: 'word_match',
      subSkillId: q.subSkillId,
      breakBefore: false,
    })),
    sections: [{ key: 'words', total: questions.length }],
    pins: {
      itemBankPinId: null,
      forms: [{ id: 'frm_profile_fixture', externalId: 'fixture', version: 1 }],
      cutVersions: { organization: null, global: null },
      catalogVersion: 'fixture',
      cell: { source: 'global', kind: 'measures', measures, subSkillIds: [] },
    },
    subSkillIds: null,
  } as unknown as DigitalSittingStarted;
  const now = new Date().toISOString();
  const result = await inTransaction(deps.sql, (uow) =>
    recordEvidence(uow, deps.store, streams.sitting(attemptId), [
      { type: SITTING_STARTED, data: started },
      ...questions.map((q, position) => ({
        type: SITTING_ANSWER_RECORDED,
        data: {
          attemptId,
          position,
          itemId: `itm_profile_${position}`,
          measureCode: q.measureCode,
          answer: 'a',
          correct: q.correct,
          at: now,
        },
      })),
      { type: SITTING_COMPLETED, data: { attemptId, at: now, result: { raw: 0, max: questions.length } } },
    ]),
  );
  if (result.kind !== 'appended') throw new Error(`fixture sitting: ${result.kind}`);
  return attemptId;
}
