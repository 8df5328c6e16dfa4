import type { OfType } from '@qiraa/eventstore';
import { defineProjection, eventsOfType } from '@qiraa/projections';
import {
  PRACTICE_ANSWER_RECORDED,
  SUPPORT_STEP_FIRED,
  TRAINING_DAY_ENDED,
  TRAINING_DAY_OPENED,
  type TrainingEvent,
} from '../events';

/**
 * `trn_days`, `trn_answers`, `trn_support_steps` from `trainingday-<dayId>`: one insert per table per batch
 * (`on conflict do nothing`: idempotent per event), the day's counters recounted from its answer rows, and
 * the ends applied in one update.
 */
const DAY_EVENT_TYPES = [
  TRAINING_DAY_OPENED,
  PRACTICE_ANSWER_RECORDED,
  SUPPORT_STEP_FIRED,
  TRAINING_DAY_ENDED,
] as const;

export const daysProjection = defineProjection<OfType<TrainingEvent, (typeof DAY_EVENT_TYPES)[number]>>({
  name: 'training_days',
  version: 1,
  handles: DAY_EVENT_TYPES,
  tables: ['trn_days', 'trn_answers', 'trn_support_steps'],
  async applyBatch({ sql, table }, events) {
    const days = sql(table('trn_days'));
    const answersT = sql(table('trn_answers'));
    const stepsT = sql(table('trn_support_steps'));
    const ended = eventsOfType(events, TRAINING_DAY_ENDED).map((e) => ({
      day_id: e.data.dayId,
      end_reason: e.data.endReason,
      ended_at: e.data.at,
    }));
    // A day opened and ended in the same batch is inserted ended: at most one open day per student is a unique
    // index, and a rebuild's batch holds many ended days of one student.
    const endOf = new Map(ended.map((x) => [x.day_id, x]));
    const opened = eventsOfType(events, TRAINING_DAY_OPENED).map((e) => {
      const d = e.data;
      return {
        day_id: d.dayId,
        student_id: d.studentId,
        organization_id: d.organizationId,
        school_day: d.schoolDay,
        time_zone: d.timeZone,
        academic_year: d.academicYear,
        leveled: d.leveled,
        planned_exercises: d.plannedExercises,
        questions_per_exercise: d.questionsPerExercise,
        targets: d.exercises
          .filter((x, i, all) => all.findIndex((y) => y.skillId === x.skillId) === i)
          .map((x) => ({ skillId: x.skillId, level: x.level, levelId: x.levelId, measureCode: x.measureCode })),
        exit_planned: d.exit ? 1 : 0,
        opened_at: d.openedAt,
        ended_at: endOf.get(d.dayId)?.ended_at ?? null,
        end_reason: endOf.get(d.dayId)?.end_reason ?? null,
        stream_version: e.streamVersion.toString(),
      };
    });
    // Sent together (pipelined on the batch's one connection) and run in this order: each statement sees the
    // rows of the ones before it, none waits for another's answer.
    const statements: Promise<unknown>[] = [];
    // Ends of days already stored go before the inserts, for the same index: a batch may hold the end of
    // yesterday's day and the opening of today's (any batch size but 1, in a rebuild or the live runner).
    if (ended.length > 0) {
      statements.push(sql`
        update ${days} d set ended_at = r.ended_at, end_reason = r.end_reason
        from jsonb_to_recordset(${sql.json(ended as never)}) as r(day_id uuid, end_reason text, ended_at timestamptz)
        where d.day_id = r.day_id and d.ended_at is null`);
    }
    if (opened.length > 0) {
      statements.push(sql`
        insert into ${days} (day_id, student_id, organization_id, school_day, time_zone, academic_year, leveled,
          planned_exercises, questions_per_exercise, targets, exit_planned, opened_at, ended_at, end_reason,
          stream_version)
        select r.day_id, r.student_id, r.organization_id, r.school_day, r.time_zone, r.academic_year, r.leveled,
               r.planned_exercises, r.questions_per_exercise, r.targets, r.exit_planned, r.opened_at, r.ended_at,
               r.end_reason, r.stream_version
        from jsonb_to_recordset(${sql.json(opened as never)}) as r(day_id uuid, student_id bigint,
          organization_id text, school_day date, time_zone text, academic_year text, leveled boolean,
          planned_exercises smallint, questions_per_exercise smallint, targets jsonb, exit_planned smallint,
          opened_at timestamptz, ended_at timestamptz, end_reason text, stream_version bigint)
        on conflict (day_id) do nothing`);
    }
    const answers = eventsOfType(events, PRACTICE_ANSWER_RECORDED).map((e) => {
      const a = e.data;
      return {
        answer_id: a.answerId,
        day_id: a.dayId,
        student_id: a.studentId,
        skill_id: a.skillId,
        level: a.level,
        level_id: a.levelId,
        item_id: a.itemId,
        role: a.role,
        support_step_id: a.supportStepId,
        correct: a.correct,
        hinted: a.hinted,
        counted: a.counted,
        not_counted: a.notCounted,
        response_ms: a.responseMs,
        school_day: a.schoolDay,
        answered_at: a.answeredAt,
        seq: e.streamVersion.toString(),
      };
    });
    if (answers.length > 0) {
      statements.push(sql`
        insert into ${answersT} (answer_id, day_id, student_id, skill_id, level, level_id, item_id, role,
          support_step_id, correct, hinted, counted, not_counted, response_ms, school_day, answered_at, seq)
        select r.answer_id, r.day_id, r.student_id, r.skill_id, r.level, r.level_id, r.item_id, r.role,
               r.support_step_id, r.correct, r.hinted, r.counted, r.not_counted, r.response_ms, r.school_day,
               r.answered_at, r.seq
        from jsonb_to_recordset(${sql.json(answers as never)}) as r(answer_id uuid, day_id uuid, student_id bigint,
          skill_id text, level smallint, level_id uuid, item_id text, role text, support_step_id uuid,
          correct boolean, hinted boolean, counted boolean, not_counted text, response_ms integer,
          school_day date, answered_at timestamptz, seq bigint)
        on conflict (answer_id) do nothing`);
    }
    const steps = eventsOfType(events, SUPPORT_STEP_FIRED).map((e) => {
      const s = e.data;
      return {
        step_id: s.stepId,
        day_id: s.dayId,
        student_id: s.studentId,
        rule_id: s.ruleId,
        rule_version: s.ruleVersion,
        target_skill_id: s.targetSkillId,
        level: s.level,
        support_skills: s.supportSkills,
        prompt_id: s.promptId,
        fired_at: s.firedAt,
      };
    });
    if (steps.length > 0) {
      statements.push(sql`
        insert into ${stepsT} (step_id, day_id, student_id, rule_id, rule_version, target_skill_id, level,
          support_skills, prompt_id, fired_at)
        select r.step_id, r.day_id, r.student_id, r.rule_id, r.rule_version, r.target_skill_id, r.level,
               array(select jsonb_array_elements_text(r.support_skills)), r.prompt_id, r.fired_at
        from jsonb_to_recordset(${sql.json(steps as never)}) as r(step_id uuid, day_id uuid, student_id bigint,
          rule_id text, rule_version text, target_skill_id text, level smallint, support_skills jsonb,
          prompt_id text, fired_at timestamptz)
        on conflict (step_id) do nothing`);
    }
    // Counters recounted from the stored answers of the touched days: applying a batch twice cannot double them.
    const touched = [...new Set(events.map((e) => e.data.dayId))];
    const top = new Map<string, string>();
    for (const e of events) top.set(e.data.dayId, e.streamVersion.toString());
    statements.push(sql`
      update ${days} d set answered = c.answered, counted = c.counted, correct = c.correct,
        exit_answered = c.exit_answered, exit_correct = c.exit_correct,
        stream_version = greatest(d.stream_version, v.version)
      from (
        select d2.day_id,
               count(a.answer_id)::int as answered,
               count(a.answer_id) filter (where a.counted)::int as counted,
               count(a.answer_id) filter (where a.counted and a.correct)::int as correct,
               count(a.answer_id) filter (where a.role = 'exit')::int as exit_answered,
               count(a.answer_id) filter (where a.role = 'exit' and a.correct)::int as exit_correct
        from ${days} d2 left join ${answersT} a on a.day_id = d2.day_id
        where d2.day_id = any(${sql.array(touched)}::uuid[])
        group by d2.day_id
      ) c, jsonb_each_text(${sql.json(Object.fromEntries(top) as never)}) as v0(day_id, v),
      lateral (select v0.v::bigint as version) v
      where d.day_id = c.day_id and v0.day_id::uuid = c.day_id`);
    await Promise.all(statements);
  },
});
