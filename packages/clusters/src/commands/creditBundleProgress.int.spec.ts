import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { loadCatalog } from '@qiraa/content';
import type { StatusToken } from '@qiraa/decisions';
import { deterministicEventId } from '@qiraa/eventstore';
import { SESSION_ANSWER_RECORDED, SESSION_SLOT_COMPLETED, sessionStream } from '@qiraa/sessions';
import { describe, expect, it } from 'vitest';
import { bundleProgressReactor } from '../projections/bundleProgressReactor';
import { decideSkillStatus, recommend } from '../testing/decisionFixture';
import { creditBundleProgress } from './creditBundleProgress';

const { t, w } = useTestWorld();
const deps = () => ({ sql: t.db.sql, store: t.runtime.store });

/** A class of two recommended children (the fixture's bundle), recomputed and bulk-activated by its teacher. */
async function activatedPair(): Promise<{ members: number[]; bundleId: string; activatedAt: string }> {
  const root = client(t.app, w.superToken);
  const cls = await root.post('/api/classes', {
    schoolId: w.a.schoolId,
    name: 'حزمة',
    grade: 2,
    academicYear: '2026-2027',
  });
  expect(cls.statusCode, cls.body).toBe(201);
  const classId = cls.json().id as string;
  expect((await root.post(`/api/classes/${classId}/teachers`, { teacherUserId: w.a.teacherId })).statusCode).toBe(201);
  const members: number[] = [];
  for (const name of ['ريم', 'سارة']) {
    const s = await root.post(`/api/classes/${classId}/students`, { fullNameAr: name });
    expect(s.statusCode, s.body).toBe(201);
    members.push(s.json().studentId);
    await recommend(deps(), s.json().studentId, w.a.id);
  }
  members.sort((a, b) => a - b);
  const teacher = client(t.app, w.a.teacherToken);
  const gen = await teacher.post(`/api/cluster/recompute/${classId}`, {});
  expect(gen.statusCode, gen.body).toBe(200);
  const cluster = gen.json().clusters[0];
  const activated = await teacher.post('/api/cluster/bulk-activate', {
    clusterKey: cluster.clusterKey,
    confirmedMemberStudentIds: members,
    memberAdjustments: [],
  });
  expect(activated.statusCode, activated.body).toBe(201);
  return { members, bundleId: activated.json().bundleId, activatedAt: activated.json().activatedAt };
}

/** A real SkillStatusDecided of the child (decisions' event, projected as decisions does). */
const decide = (studentId: number, subSkillId: string, status: StatusToken, decidedAt: string) =>
  decideSkillStatus(deps(), studentId, w.a.id, { subSkillId, status, decidedAt });

const credits = async (studentId: number) =>
  t.db.sql<{ source_kind: string; n: number }[]>`
    select source_kind, count(*)::int as n from gam_mastery_events
    where student_id = ${studentId} and source_kind in ('bundle_step_goal_met', 'bundle_completion')
    group by source_kind order by source_kind`;

describe('bundle progress credit (BPR-01, BPR-02)', () => {
  it('credits each met step once and the completion once, however often it re-runs', async () => {
    const { members, bundleId, activatedAt } = await activatedPair();
    const [child, other] = members as [number, number];
    const catalog = await loadCatalog(t.db.sql);
    const steps = catalog.supportBundles.find((b) => b.id === bundleId)!.steps;
    expect(steps.length).toBeGreaterThan(1);
    const subSkillOf = (skillId: string) => catalog.subSkills.find((s) => s.skillId === skillId)!.id;
    const later = (ms: number) => new Date(Date.parse(activatedAt) + ms).toISOString();
    const before = new Date(Date.parse(activatedAt) - 60_000).toISOString();

    // Before the activation, or below the goal, or a safe stop: nothing.
    await decide(child, subSkillOf(steps[0]!.skillId), 'strong', before);
    await decide(child, subSkillOf(steps[1]!.skillId), 'developing', later(1000));
    const none = await creditBundleProgress(deps(), child);
    expect(none.stepsMet).toEqual([]);
    expect(await credits(child)).toEqual([]);

    // The first step's sub-skill rises to the goal after activation: one step, no completion yet.
    const trigger = await decide(child, subSkillOf(steps[0]!.skillId), 'on_track', later(2000));
    const one = await creditBundleProgress(deps(), child);
    expect(one.stepsMet).toEqual([
      expect.objectContaining({ bundleId, stepCode: steps[0]!.stepCode, ruleId: 'BPR-01', triggerDecisionId: trigger }),
    ]);
    expect(one.results.map((r) => r.kind)).toEqual(['recorded']);
    expect(await creditBundleProgress(deps(), child).then((p) => p.results.map((r) => r.kind))).toEqual(['duplicate']);

    // A later, different decision on the same step (re-decided, e.g. re-delivered work) credits nothing more.
    await decide(child, subSkillOf(steps[0]!.skillId), 'strong', later(3000));
    // Every step met: each remaining step once, and the completion once.
    for (const [i, step] of steps.entries()) {
      if (i > 0) await decide(child, subSkillOf(step.skillId), 'on_track', later(4000 + i));
    }
    const all = await creditBundleProgress(deps(), child);
    expect(all.stepsMet).toHaveLength(steps.length);
    expect(all.completedBundleIds).toEqual([bundleId]);
    for (let run = 0; run < 3; run++) await creditBundleProgress(deps(), child);
    // Parallel re-runs (two reactors' batches, say) still store each credit once.
    await Promise.all([creditBundleProgress(deps(), child), creditBundleProgress(deps(), child)]);
    expect(await credits(child)).toEqual([
      { source_kind: 'bundle_completion', n: 1 },
      { source_kind: 'bundle_step_goal_met', n: steps.length },
    ]);
    // The other member of the cluster earned nothing of this child's evidence.
    expect((await creditBundleProgress(deps(), other)).stepsMet).toEqual([]);
    expect(await credits(other)).toEqual([]);
  }, 120_000);

  it('is credited by the reactor when a decision meets a step: one credit per step, replays included', async () => {
    const { members, bundleId, activatedAt } = await activatedPair();
    const child = members[0]!;
    const catalog = await loadCatalog(t.db.sql);
    const steps = catalog.supportBundles.find((b) => b.id === bundleId)!.steps;
    const subSkillOf = (skillId: string) => catalog.subSkills.find((s) => s.skillId === skillId)!.id;
    const later = (ms: number) => new Date(Date.parse(activatedAt) + ms).toISOString();
    for (const [i, step] of steps.entries()) {
      await decide(child, subSkillOf(step.skillId), 'on_track', later(1000 + i));
      await t.runtime.reactor.catchUp(bundleProgressReactor.name);
      expect(await credits(child)).toEqual([
        ...(i === steps.length - 1 ? [{ source_kind: 'bundle_completion', n: 1 }] : []),
        { source_kind: 'bundle_step_goal_met', n: i + 1 },
      ]);
    }
    // A re-decided step (the same sub-skill again, stronger) wakes the reactor and credits nothing new.
    await decide(child, subSkillOf(steps[0]!.skillId), 'strong', later(9000));
    await t.runtime.reactor.catchUp(bundleProgressReactor.name);
    expect(await credits(child)).toEqual([
      { source_kind: 'bundle_completion', n: 1 },
      { source_kind: 'bundle_step_goal_met', n: steps.length },
    ]);
  }, 120_000);
  it('a completed online session whose answers reach the goal meets a step (BPR-01 v2); one below it does not', async () => {
    const { members, bundleId, activatedAt } = await activatedPair();
    const child = members[0]!;
    const catalog = await loadCatalog(t.db.sql);
    const steps = catalog.supportBundles.find((b) => b.id === bundleId)!.steps;
    const subSkillOf = (skillId: string) => catalog.subSkills.find((s) => s.skillId === skillId)!.id;
    const later = (ms: number) => new Date(Date.parse(activatedAt) + ms).toISOString();
    /** The session's own events, as the practice queue appends them (answers, then the completion). */
    const completeSession = async (subSkillId: string, rights: boolean[], completedAt: string) => {
      const sessionId = `ses_${randomUUID().slice(0, 14)}`;
      const meta = { organizationId: w.a.id };
      const answers = rights.map((correct, i) => ({
        eventId: deterministicEventId('session-answer', sessionId, child, `itm_${i}`),
        type: SESSION_ANSWER_RECORDED,
        metadata: meta,
        data: {
          answerId: deterministicEventId('session-answer', sessionId, child, `itm_${i}`),
          sessionId,
          slotId: `sst_${sessionId}`,
          studentId: child,
          organizationId: w.a.id,
          itemId: `itm_${i}`,
          subSkillId,
          position: i + 1,
          selectedOptionKey: 'a',
          correct,
          total: rights.length,
          answeredAt: completedAt,
        },
      }));
      const bySubSkill = [{ subSkillId, answered: rights.length, correct: rights.filter(Boolean).length }];
      const done = {
        type: SESSION_SLOT_COMPLETED,
        metadata: meta,
        data: {
          sessionId,
          slotId: `sst_${sessionId}`,
          studentId: child,
          organizationId: w.a.id,
          total: rights.length,
          correct: bySubSkill[0]!.correct,
          bySubSkill,
          completedAt,
        },
      };
      const result = await t.runtime.store.append(sessionStream(sessionId), [...answers, done], {
        expected: 'no_stream',
      });
      expect(result.kind).toBe('appended');
      await t.runtime.projector.catchUp();
      // The credit is a reaction (clusters → gamification), delivered after the session's read models.
      await t.runtime.reactor.catchUp(bundleProgressReactor.name);
      return sessionId;
    };
    // Two of three right (below 80 %): no step.
    await completeSession(subSkillOf(steps[0]!.skillId), [true, false, true], later(1000));
    expect(await credits(child)).toEqual([]);
    // Four of four right on the first step's skill: the step, credited by the reactor with the session as evidence.
    const met = await completeSession(subSkillOf(steps[0]!.skillId), [true, true, true, true], later(2000));
    expect(await credits(child)).toEqual([{ source_kind: 'bundle_step_goal_met', n: 1 }]);
    const [row] = await t.db.sql<{ session_id: string }[]>`
      select session_id from gam_mastery_events where student_id = ${child} and source_kind = 'bundle_step_goal_met'`;
    expect(row!.session_id).toBe(`session:${met}`);
    const progress = await creditBundleProgress(deps(), child);
    expect(progress.stepsMet[0]).toMatchObject({ triggerSessionId: met, triggerDecisionId: null, ruleId: 'BPR-01' });
    expect(progress.results.map((r) => r.kind)).toEqual(['duplicate']);
  }, 120_000);
});
