import { client, useTestWorld } from '@qiraa/app/testing';
import { eventsOfType } from '@qiraa/eventstore';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentDay, submitResponse } from '../commands/practiceQueue';
import { currentSlot } from '../engine/foldDay';
import { TRAINING_LEVEL_MOVED, TRAINING_LEVEL_STARTED, trainingEvents } from '../events';
import { CURRENT_TRAINING_RULES } from '../rules/trainingRules';
import { importTrainingPack, optionKey } from '../testing';

/**
 * A grade-4 class practises 30 school days (Sunday to Thursday) through the commands with a fixed clock: every
 * answer 5 s after the previous one (never rapid). Grade 4 trains two skills with the demo pack
 * (spelling_patterns from sp_taa_forms, root_awareness from ra_word_family), 3 items per level, so each day
 * gives each skill one exercise of 3 questions (3 counted answers at most) and the closing question.
 * Children answer by fixed patterns; the level moves must fall on the day the rules say.
 */
const { t, w } = useTestWorld();
const YEAR = '2026-2027';
const DAYS = 30;

type Pattern = (a: { skillId: string; attempt: number; stepKind: string; indexInExercise: number }) => boolean;
const PATTERNS: Record<string, Pattern> = {
  // Every answer right at the first try.
  strong: () => true,
  // Every answer wrong, both tries.
  weak: () => false,
  // The first question of each exercise wrong at the first try (right at the second), the rest right:
  // 2 of every 3 counted answers right, so never 80 % over 8 (up) and never below 60 % in a block (down).
  steady: (a) => !(a.stepKind === 'target' && a.indexInExercise === 0 && a.attempt === 1),
};

function schoolDays(from: string, n: number): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); out.length < n; d = new Date(d.getTime() + 86_400_000)) {
    const weekday = d.getUTCDay(); // 5 Friday, 6 Saturday: the weekend
    if (weekday !== 5 && weekday !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}
const days = schoolDays('2026-09-06', DAYS);
const dayNumber = (date: string) => days.indexOf(date) + 1;

const students: Record<string, number> = {};

beforeAll(async () => {
  const sql = t.db.sql;
  await importTrainingPack(sql);
  const root = client(t.app, w.superToken);
  const cls = await root.post('/api/classes', {
    schoolId: w.a.schoolId,
    name: 'الرابع أ',
    grade: 4,
    academicYear: YEAR,
  });
  expect(cls.statusCode, cls.body).toBe(201);
  let code = 10;
  for (const name of Object.keys(PATTERNS)) {
    const res = await root.post('/api/users', {
      primaryPersona: 'STUDENT',
      fullNameAr: 'سلمى',
      classId: cls.json().id,
      quickCode: String(code++),
    });
    expect(res.statusCode, res.body).toBe(201);
    students[name] = res.json().id;
  }
  // The weak child's screen seeded spelling_patterns at level 3 (the decisions read model, as TLS-01 leaves it).
  await sql`
    insert into dec_training_seeds (student_id, academic_year, evidence_window, skill_id, seed_id, level, measure_code,
      session_id, provisional, rule_id, rule_set_version, evidence_event_ids, decided_at, stream_version)
    values (${students.weak!}, ${YEAR}, 'BOY', 'spelling_patterns', gen_random_uuid(), 3, 'spelling_choice',
      gen_random_uuid(), false, 'TLS-01', 'v1', '{}', '2026-09-01T08:00:00Z', 1)`;

  const deps = { sql, store: t.runtime.store };
  for (const date of days) {
    for (const [name, pattern] of Object.entries(PATTERNS)) {
      const studentId = students[name]!;
      let clock = new Date(`${date}T07:00:00Z`).getTime();
      let { fold } = await currentDay(deps, studentId, { open: true, now: new Date(clock) });
      for (let guard = 0; fold && !fold.ended && guard < 60; guard++) {
        const slot = currentSlot(fold)!;
        const exercise = slot.exerciseIndex === null ? null : fold.opened.exercises[slot.exerciseIndex];
        const indexInExercise = exercise && slot.stepKind === 'target' ? exercise.itemIds.indexOf(slot.itemId) : -1;
        const right = pattern({
          skillId: slot.skillId,
          attempt: slot.attempt,
          stepKind: slot.stepKind,
          indexInExercise,
        });
        clock += 5_000;
        const outcome = await submitResponse(
          deps,
          studentId,
          { itemId: slot.itemId, selectedOptionKey: await optionKey(sql, slot.itemId, right) },
          { now: new Date(clock) },
        );
        fold = outcome.fold;
      }
      expect(fold?.ended?.endReason, `${name} on ${date}`).toBe('done');
    }
  }
  // The level-up credits are gamification's, recorded by training_level_rewards_reaction after each answer.
  await t.runtime.reactor.catchUp('training_level_rewards_reaction');
}, 600_000);

/** The child's level events as (day number, skill, what happened). */
async function levelHistory(studentId: number) {
  const events = trainingEvents(await t.runtime.store.readStream(`traininglevel-${studentId}`));
  return events.map((e) => {
    if (e.type === TRAINING_LEVEL_STARTED) {
      const d = e.data;
      return [dayNumber(d.since), d.skillId, `start ${d.startedFrom} ${d.level}`];
    }
    expect(e.type).toBe(TRAINING_LEVEL_MOVED);
    if (e.type !== TRAINING_LEVEL_MOVED) throw new Error(`not a level event: ${e.type}`);
    const d = e.data;
    return [dayNumber(d.since), d.skillId, `${d.direction} ${d.fromLevel}->${d.toLevel}`];
  });
}

describe('a class over 30 school days', () => {
  it('strong: up on days 3, 6 and 9 in both skills, then level 4 holds; each up is a mastery event', async () => {
    expect(await levelHistory(students.strong!)).toEqual([
      [1, 'spelling_patterns', 'start experience_type 1'],
      [1, 'root_awareness', 'start experience_type 1'],
      [3, 'spelling_patterns', 'up 1->2'],
      [3, 'root_awareness', 'up 1->2'],
      [6, 'spelling_patterns', 'up 2->3'],
      [6, 'root_awareness', 'up 2->3'],
      [9, 'spelling_patterns', 'up 3->4'],
      [9, 'root_awareness', 'up 3->4'],
    ]);
    const moves = eventsOfType(
      trainingEvents(await t.runtime.store.readStream(`traininglevel-${students.strong!}`)),
      TRAINING_LEVEL_MOVED,
    )
      .map((e) => e.data.moveId)
      .sort();
    const mastery = await t.db.sql<{ engine_event_id: string; source_kind: string }[]>`
      select engine_event_id, source_kind from gam_mastery_events where student_id = ${students.strong!}
      order by engine_event_id`;
    expect(mastery.map((m) => m.engine_event_id)).toEqual(moves);
    expect(new Set(mastery.map((m) => m.source_kind))).toEqual(new Set(['scaffold_tier_step_up']));
    // The reaction delivered every move again (at least once) credits nothing twice: the move id is the engine id.
    await t.db.sql`update reaction_checkpoints set checkpoint = null where name = 'training_level_rewards_reaction'`;
    await t.runtime.reactor.catchUp('training_level_rewards_reaction');
    const [again] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from gam_mastery_events where student_id = ${students.strong!}`;
    expect(again!.n).toBe(moves.length);
  });

  it('weak: spelling from the screen seed at 3, down on day 6 and day 12, then holds at 1; root awareness stays at 1', async () => {
    expect(await levelHistory(students.weak!)).toEqual([
      [1, 'spelling_patterns', 'start screen 3'],
      [1, 'root_awareness', 'start experience_type 1'],
      [6, 'spelling_patterns', 'down 3->2'],
      [12, 'spelling_patterns', 'down 2->1'],
    ]);
    const [{ n }] = (await t.db.sql`
      select count(*)::int as n from gam_mastery_events where student_id = ${students.weak!}`) as unknown as [
      { n: number },
    ];
    expect(n).toBe(0);
  });

  it('weak: support steps fire at levels 1-2 only (BR-17 at 2 from day 7, BR-16 at 1 from day 13), never at 3', async () => {
    const steps = await t.db.sql<{ school_day: string; rule_id: string; level: number }[]>`
      select d.school_day::text, s.rule_id, s.level from trn_support_steps s join trn_days d on d.day_id = s.day_id
      where s.student_id = ${students.weak!} order by d.school_day`;
    const byRule = new Map<string, number[]>();
    for (const s of steps) byRule.set(s.rule_id, [...(byRule.get(s.rule_id) ?? []), dayNumber(s.school_day)]);
    expect([...byRule.keys()].sort()).toEqual(['BR-16', 'BR-17']);
    expect(byRule.get('BR-17')).toEqual([7, 8, 9, 10, 11, 12]);
    expect(byRule.get('BR-16')![0]).toBe(13);
    expect(byRule.get('BR-16')).toHaveLength(DAYS - 12);
  });

  it('steady: never moves', async () => {
    expect(await levelHistory(students.steady!)).toEqual([
      [1, 'spelling_patterns', 'start experience_type 1'],
      [1, 'root_awareness', 'start experience_type 1'],
    ]);
  });

  it('every day of every child ended done with its counted answers', async () => {
    const rows = await t.db.sql<{ student_id: string; n: number; counted: number }[]>`
      select student_id::text, count(*)::int as n, sum(counted)::int as counted from trn_days
      where student_id = any(${Object.values(students)}::bigint[]) and end_reason = 'done' group by student_id`;
    expect(rows.map((r) => r.n)).toEqual([DAYS, DAYS, DAYS]);
    // 2 skills × 3 first tries a day, all counted (5 s apart, no hint, no repeat).
    expect(rows.map((r) => r.counted)).toEqual([DAYS * 6, DAYS * 6, DAYS * 6]);
    expect(CURRENT_TRAINING_RULES.counted.rapidFloorMs).toBeLessThan(5_000);
  });
});
