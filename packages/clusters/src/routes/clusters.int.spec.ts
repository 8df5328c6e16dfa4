import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAcuteRegression, recommend } from '../testing/decisionFixture';

const { t, w } = useTestWorld();
const deps = () => ({ sql: t.db.sql, store: t.runtime.store });

async function newStudent(classId: string, name = 'سلمى'): Promise<number> {
  const res = await client(t.app, w.superToken).post(`/api/classes/${classId}/students`, { fullNameAr: name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}
let classCount = 0;
const LETTERS = 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي';
const arabicSuffix = () => {
  let n = ++classCount + Math.floor(Math.random() * 10_000);
  let out = '';
  do {
    out += LETTERS[n % LETTERS.length];
    n = Math.floor(n / LETTERS.length);
  } while (n > 0);
  return out;
};
async function newClass(): Promise<string> {
  const res = await client(t.app, w.superToken).post('/api/classes', {
    schoolId: w.a.schoolId,
    name: `صف ${arabicSuffix()}`,
    grade: 2,
    academicYear: '2026-2027',
  });
  expect(res.statusCode, res.body).toBe(201);
  const classId = res.json().id as string;
  const assign = await client(t.app, w.superToken).post(`/api/classes/${classId}/teachers`, {
    teacherUserId: w.a.teacherId,
  });
  expect(assign.statusCode, assign.body).toBeLessThan(300);
  return classId;
}
const recompute = (classId: string, token = w.a.teacherToken) =>
  client(t.app, token).post(`/api/cluster/recompute/${classId}`, {});
const assignments = (ids: number[]) =>
  t.db.sql<{ student_id: string }[]>`
    select student_id::text from clu_assignments where student_id = any(${t.db.sql.array(ids.map(String), 20)}::bigint[])`;

describe('POST /api/cluster/recompute/{classId}', () => {
  let classId: string;
  const s: Record<string, number> = {};
  beforeAll(async () => {
    classId = await newClass();
    for (const k of ['l1a', 'l2', 'l1b', 'l3', 'guard', 'none', 'acute']) s[k] = await newStudent(classId);
    const org = w.a.id;
    await recommend(deps(), s.l1a!, org, { scaffoldTier: 'Level_1' });
    await recommend(deps(), s.l2!, org, { scaffoldTier: 'Level_2' });
    await recommend(deps(), s.l1b!, org, { scaffoldTier: 'Level_1' });
    await recommend(deps(), s.l3!, org, { scaffoldTier: 'Level_3' });
    await recommend(deps(), s.guard!, org, { profileCode: 'PR2-00' });
    await recommend(deps(), s.acute!, org, { scaffoldTier: 'Level_1' });
    await openAcuteRegression(deps(), s.acute!, org);
  }, 120_000);

  it('tenant 404 before 403: another organization’s or an unknown class is 404, another teacher 403', async () => {
    expect((await recompute(w.b.classId)).statusCode).toBe(404);
    expect((await recompute('cls_doesnotexist')).statusCode).toBe(404);
    expect((await recompute(w.b.classId, w.a.parentToken)).statusCode).toBe(404);
    const other = await recompute(classId, w.a.otherTeacherToken);
    expect(other.statusCode, other.body).toBe(403);
    expect(other.json().code).toBe('PERMISSION_DENIED');
    expect((await recompute(classId, w.a.parentToken)).statusCode).toBe(403);
    expect((await recompute(classId, w.a.principalToken)).statusCode).toBe(403);
  });

  it('clusters by key (MERGE_L1_L2 for teacher-led), lists the exclusions, drops a cluster below 2 silently', async () => {
    const res = await recompute(classId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.ruleSetVersion).toBe('v1');
    expect(body.minClusterSize).toBe(2);
    expect(body.created).toBe(true);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(60 * 86_400_000);
    expect(body.clusters).toEqual([
      {
        clusterKey:
          'bundle_id=bnd_decoding_foundations;anchor_skill_group=decoding;scaffold_tier=MERGE_L1_L2;' +
          'compatible_delivery_mode=teacher_led;sufficient_data=true',
        bundleId: 'bnd_decoding_foundations',
        anchorSkillGroup: 'decoding',
        scaffoldTier: 'MERGE_L1_L2',
        compatibleDeliveryMode: 'teacher_led',
        sufficientData: true,
        memberStudentIds: [s.l1a, s.l2, s.l1b].sort((a, b) => a! - b!),
        ruleIds: ['CLU-03', 'CLU-04', 'CLU-05', 'CLU-06', 'CLU-07'],
      },
    ]);
    expect(body.individualReview).toEqual([{ studentId: s.acute, alertIds: expect.any(Array), ruleId: 'CLU-01' }]);
    expect(body.moreDataNeeded).toEqual([
      { studentId: s.guard, reason: 'data_incomplete', ruleId: 'CLU-02' },
      { studentId: s.none, reason: 'no_recommendation', ruleId: 'CLU-02' },
    ]);
    // The lone Level_3 child's cluster is dropped: in no cluster and in neither list.
    expect(JSON.stringify(body)).not.toContain(`"studentId":${s.l3}`);
    // The administrator (RUN_BACKOFFICE) may recompute too; unchanged inputs write nothing.
    const again = await recompute(classId, w.a.adminToken);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().created).toBe(false);
    expect(again.json().generationId).toBe(body.generationId);
    const events = await t.runtime.store.readStream(`clustergen-${classId}`);
    expect(events).toHaveLength(1);
  });

  it('a changed input writes a new generation; the old one stays (append-only)', async () => {
    await recommend(deps(), s.l3!, w.a.id, { scaffoldTier: 'Level_2' });
    const res = await recompute(classId);
    expect(res.json().created).toBe(true);
    expect(res.json().clusters[0].memberStudentIds).toContain(s.l3);
    const rows = await t.db.sql`select generation_id from clu_generations where class_id = ${classId}`;
    expect(rows).toHaveLength(2);
  });

  it('the school minimum size (3 to 5) drops a smaller cluster', async () => {
    const small = await newClass();
    const a = await newStudent(small);
    const b = await newStudent(small);
    await recommend(deps(), a, w.a.id);
    await recommend(deps(), b, w.a.id);
    expect((await recompute(small)).json().clusters).toHaveLength(1);
    await t.db.sql`insert into clu_school_settings (school_id, min_cluster_size) values (${w.a.schoolId}, 3)`;
    try {
      const res = (await recompute(small)).json();
      expect(res.minClusterSize).toBe(3);
      expect(res.clusters).toEqual([]);
      expect(res.moreDataNeeded.map((r: { studentId: number }) => r.studentId)).not.toContain(a);
    } finally {
      await t.db.sql`delete from clu_school_settings where school_id = ${w.a.schoolId}`;
    }
  });
});

describe('GET /api/cluster/student/{id}/preview', () => {
  it('tenant 404 before 403, then the teacher and the admin read it', async () => {
    const get = (id: number, token: string) => client(t.app, token).get(`/api/cluster/student/${id}/preview`);
    expect((await get(w.b.studentId, w.a.teacherToken)).statusCode).toBe(404);
    expect((await get(99_999_999, w.a.teacherToken)).statusCode).toBe(404);
    expect((await get(w.b.studentId, w.a.parentToken)).statusCode).toBe(404);
    expect((await get(w.a.studentId, w.a.otherTeacherToken)).statusCode).toBe(403);
    expect((await get(w.a.studentId, w.a.parentToken)).statusCode).toBe(403);
    expect((await get(w.a.studentId, w.a.principalToken)).statusCode).toBe(403);
    const res = await get(w.a.studentId, w.a.teacherToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ studentId: w.a.studentId, activeBundle: null, tierBreakdown: [] });
    expect((await get(w.a.studentId, w.a.adminToken)).statusCode).toBe(200);
  });

  it('names the child’s cluster in the newest generation', async () => {
    const classId = await newClass();
    const a = await newStudent(classId);
    const b = await newStudent(classId);
    await recommend(deps(), a, w.a.id, { scaffoldTier: 'Level_3' });
    await recommend(deps(), b, w.a.id, { scaffoldTier: 'Level_3' });
    const gen = (await recompute(classId)).json();
    const res = await client(t.app, w.a.teacherToken).get(`/api/cluster/student/${a}/preview`);
    expect(res.json().assignment).toMatchObject({
      state: 'clustered',
      generationId: gen.generationId,
      classId,
      ruleSetVersion: 'v1',
      scaffoldTier: 'Level_3',
      compatibleDeliveryMode: 'independent',
      bundleId: 'bnd_decoding_foundations',
    });
  });
});

describe('POST /api/cluster/bulk-activate', () => {
  let classId: string;
  let members: number[];
  let guard: number;
  let key: string;
  beforeAll(async () => {
    classId = await newClass();
    members = [await newStudent(classId), await newStudent(classId)];
    guard = await newStudent(classId);
    for (const m of members) await recommend(deps(), m, w.a.id);
    await recommend(deps(), guard, w.a.id, { profileCode: 'PR2-00' });
    key = (await recompute(classId)).json().clusters[0].clusterKey;
  }, 120_000);
  const activate = (body: object, token = w.a.teacherToken) =>
    client(t.app, token).post('/api/cluster/bulk-activate', body);

  it('tenant 404 before 403; only the teacher of the members', async () => {
    const body = { clusterKey: key, confirmedMemberStudentIds: [w.b.studentId], memberAdjustments: [] };
    expect((await activate(body)).statusCode).toBe(404);
    expect((await activate({ ...body, confirmedMemberStudentIds: [99_999_999] })).statusCode).toBe(404);
    expect((await activate(body, w.a.adminToken)).statusCode).toBe(404);
    const own = { ...body, confirmedMemberStudentIds: members };
    expect((await activate(own, w.a.otherTeacherToken)).statusCode).toBe(403);
    expect((await activate(own, w.a.adminToken)).statusCode).toBe(403);
    expect((await activate(own, w.a.parentToken)).statusCode).toBe(403);
    expect(await assignments(members)).toEqual([]);
  });

  it('refusals write nothing: adjustments 422, an excluded member 422, a stale membership 409', async () => {
    const adj = await activate({ clusterKey: key, confirmedMemberStudentIds: members, memberAdjustments: [{ x: 1 }] });
    expect(adj.statusCode, adj.body).toBe(422);
    expect(adj.json().code).toBe('MEMBER_ADJUSTMENTS_NOT_SUPPORTED');
    const excluded = await activate({
      clusterKey: key,
      confirmedMemberStudentIds: [...members, guard],
      memberAdjustments: [],
    });
    expect(excluded.statusCode, excluded.body).toBe(422);
    expect(excluded.json().code).toBe('EXCLUDED_MEMBER');
    const partial = await activate({ clusterKey: key, confirmedMemberStudentIds: [members[0]], memberAdjustments: [] });
    expect(partial.statusCode, partial.body).toBe(409);
    expect(partial.json().code).toBe('CLUSTER_STALE');
    const otherMode = key.replace('MERGE_L1_L2', 'Level_3').replace('teacher_led', 'independent');
    const gone = await activate({ clusterKey: otherMode, confirmedMemberStudentIds: members, memberAdjustments: [] });
    expect(gone.statusCode, gone.body).toBe(409);
    expect(gone.json().code).toBe('CLUSTER_STALE');
    const bad = await activate({ clusterKey: 'not a key', confirmedMemberStudentIds: members, memberAdjustments: [] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    expect(await assignments([...members, guard])).toEqual([]);
  });

  it('activates one bundle assignment per member and tells the linked parent', async () => {
    const res = await activate({ clusterKey: key, confirmedMemberStudentIds: members, memberAdjustments: [] });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.bundleId).toBe('bnd_decoding_foundations');
    expect(body.assignments.map((a: { studentId: number }) => a.studentId)).toEqual([...members].sort((a, b) => a - b));
    expect(await assignments(members)).toHaveLength(2);
    const preview = await client(t.app, w.a.teacherToken).get(`/api/cluster/student/${members[0]}/preview`);
    expect(preview.json().activeBundle).toMatchObject({ bundleId: 'bnd_decoding_foundations', clusterKey: key });
  });
});
