import type { World } from '@qiraa/app/testing';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { Projector } from '@qiraa/projections';
import type { FastifyInstance } from 'fastify';
import { type ContentIds, seedContent } from './contentSeed';
import { type OralIds, seedOral } from './oralSeed';
import { seedSittings } from './sittingSeed';
import { badAuthorizations } from './tokens';
import { NO_TRAINING_IDS, seedTraining, type TrainingIds } from './trainingSeed';

/** A caller: the `Authorization` header it sends (none for anonymous) and where it sits in the tenant tree. */
export interface Persona {
  name: string;
  authorization?: string;
  /** `a`: a member of organization A (not super-scope); `super`: organizationId null; `none`: no valid token. */
  scope: 'a' | 'super' | 'none';
}

/** World ids by the field or parameter names routes use for them. */
export type IdSet = Record<TenantRef | 'classCode', string | number>;
export type TenantRef =
  | 'organizationId'
  | 'schoolId'
  | 'classId'
  | 'studentId'
  | 'teacherUserId'
  | 'parentUserId'
  | 'wordListId'
  | 'batchId'
  | 'itemId'
  | 'passageId'
  | 'sittingId'
  | 'orfAssessmentId'
  | 'groupId'
  | 'alertId';
export const TENANT_REFS: readonly TenantRef[] = [
  'organizationId',
  'schoolId',
  'classId',
  'studentId',
  'teacherUserId',
  'parentUserId',
  'wordListId',
  'batchId',
  'itemId',
  'passageId',
  'sittingId',
  'orfAssessmentId',
  'groupId',
  'alertId',
];

export interface FuzzWorld {
  personas: Persona[];
  /** Callers with a token the server must refuse. */
  badTokens: Persona[];
  /** Organization A's ids: what valid requests name. */
  own: IdSet;
  /** A's class held by the other teacher: what deletions and deactivations name, so the main class survives. */
  ownExpendable: IdSet;
  /** Organization B's ids: named only by A's callers, for the tenant rule (B is never written to on purpose). */
  foreign: IdSet;
  /** Well-formed ids nothing has. */
  missing: IdSet;
}

/** Ids the fuzz world seeds beyond the test world: content, a diagnostic sitting and an oral reading. */
type SeededIds = ContentIds & OralIds & TrainingIds & { sittingId: string };

/**
 * The test world plus, per organization, content, a diagnostic sitting of its student and an oral reading
 * its teacher started, seen as the fuzzer's callers and ids. Sittings first: they open BOY for both.
 */
export async function buildFuzzWorld(
  app: FastifyInstance,
  w: World,
  jwtSecret: string,
  sql: Sql,
  runtime?: { store: EventStore; projector: Projector },
): Promise<FuzzWorld> {
  const sittings = await seedSittings(app, sql, w);
  const seed = async (o: World['a'], tag: string, sittingId: string): Promise<SeededIds> => ({
    ...(await seedContent(app, o.adminToken, tag)),
    ...(await seedOral(app, sql, o)),
    // Without the runtime (its event store and projector) no alert can be raised: the ids name nothing.
    ...(runtime ? await seedTraining(app, sql, runtime, o) : NO_TRAINING_IDS),
    sittingId,
  });
  return fuzzWorld(w, jwtSecret, { a: await seed(w.a, 'a', sittings.a), b: await seed(w.b, 'b', sittings.b) });
}

export function fuzzWorld(w: World, jwtSecret: string, content?: { a: SeededIds; b: SeededIds }): FuzzWorld {
  const a = w.a;
  const personas: Persona[] = [
    { name: 'anonymous', scope: 'none' },
    { name: 'super', authorization: `Bearer ${w.superToken}`, scope: 'super' },
    { name: 'a.admin', authorization: `Bearer ${a.adminToken}`, scope: 'a' },
    { name: 'a.teacher', authorization: `Bearer ${a.teacherToken}`, scope: 'a' },
    { name: 'a.otherTeacher', authorization: `Bearer ${a.otherTeacherToken}`, scope: 'a' },
    { name: 'a.principal', authorization: `Bearer ${a.principalToken}`, scope: 'a' },
    { name: 'a.manager', authorization: `Bearer ${a.managerToken}`, scope: 'a' },
    { name: 'a.parent', authorization: `Bearer ${a.parentToken}`, scope: 'a' },
    { name: 'a.student', authorization: `Bearer ${a.studentToken}`, scope: 'a' },
  ];
  const badTokens = Object.entries(badAuthorizations(a.adminToken, jwtSecret)).map(
    ([name, authorization]): Persona => ({ name: `token:${name}`, authorization, scope: 'none' }),
  );
  const none: SeededIds = {
    wordListId: 'wl_00000000000000',
    batchId: 'bat_00000000000000',
    itemId: 'itm_00000000000000',
    passageId: 'psg_00000000000000',
    sittingId: '00000000-0000-4000-8000-000000000000',
    orfAssessmentId: '00000000-0000-4000-8000-000000000000',
    ...NO_TRAINING_IDS,
  };
  const ids = (o: World['a'], c: SeededIds = none): IdSet => ({
    ...c,
    organizationId: o.id,
    schoolId: o.schoolId,
    classId: o.classId,
    studentId: o.studentId,
    teacherUserId: o.teacherId,
    parentUserId: o.parentId,
    classCode: o.classCode,
  });
  return {
    personas,
    badTokens,
    own: ids(a, content?.a),
    ownExpendable: { ...ids(a, content?.a), classId: a.otherClassId, schoolId: a.otherSchoolId },
    foreign: ids(w.b, content?.b),
    missing: {
      ...none,
      organizationId: 'org_000000000000',
      schoolId: 'sch_000000000000',
      classId: 'cls_000000000000',
      studentId: 999_999_999,
      teacherUserId: 999_999_998,
      parentUserId: 999_999_997,
      classCode: 'ZZZZZZZZ',
    },
  };
}
