import { skillLabels, trainingLevelNames } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';

interface TargetRef {
  skillId: string;
  level: number;
  levelId: string;
}

const labels = async (sql: AnySql) => {
  const [skill, level] = await Promise.all([skillLabels(sql), trainingLevelNames(sql)]);
  return { skill, level };
};

/** GET …/training-sessions: the child's training days, newest first. */
export async function trainingDaysOf(sql: AnySql, studentId: number) {
  const [rows, names] = await Promise.all([
    sql<
      {
        day_id: string;
        school_day: string;
        time_zone: string;
        leveled: boolean;
        targets: TargetRef[];
        ended_at: Date | null;
        end_reason: 'done' | 'cap' | 'window_closed' | null;
        answered: number;
        counted: number;
        correct: number;
        exit_planned: number;
        exit_answered: number;
        steps: number;
      }[]
    >`
      select d.day_id, d.school_day::text, d.time_zone, d.leveled, d.targets, d.ended_at, d.end_reason, d.answered,
             d.counted, d.correct, d.exit_planned, d.exit_answered,
             (select count(*)::int from trn_support_steps s where s.day_id = d.day_id) as steps
      from trn_days d where d.student_id = ${studentId}
      order by d.school_day desc, d.opened_at desc
      limit 200`,
    labels(sql),
  ]);
  return {
    studentId,
    sessions: rows.map((r) => ({
      id: r.day_id,
      date: r.school_day,
      timeZone: r.time_zone,
      leveled: r.leveled,
      ended: r.ended_at !== null,
      endReason: r.end_reason,
      counted: r.counted,
      correct: r.correct,
      targets: r.leveled
        ? r.targets.map((t) => ({
            skillId: t.skillId,
            skillLabelAr: names.skill.get(t.skillId) ?? t.skillId,
            levelNumber: t.level,
            levelNameAr: names.level.get(t.level) ?? '',
          }))
        : null,
      supportSteps: r.leveled ? r.steps : null,
      exitDone: r.leveled ? r.exit_planned > 0 && r.exit_answered >= r.exit_planned : null,
      answeredCount: r.leveled ? r.answered : null,
    })),
  };
}

/** GET …/training-sessions/{id}: one day with per-target counts, support steps oldest first and the exit. */
export async function trainingDayOf(sql: AnySql, studentId: number, dayId: string) {
  const [day] = await sql<
    {
      day_id: string;
      school_day: string;
      time_zone: string;
      leveled: boolean;
      planned_exercises: number;
      questions_per_exercise: number;
      targets: TargetRef[];
      exit_planned: number;
      exit_answered: number;
      exit_correct: number;
      ended_at: Date | null;
      end_reason: 'done' | 'cap' | 'window_closed' | null;
      counted: number;
      correct: number;
    }[]
  >`
    select day_id, school_day::text, time_zone, leveled, planned_exercises, questions_per_exercise, targets,
           exit_planned, exit_answered, exit_correct, ended_at, end_reason, counted, correct
    from trn_days where day_id = ${dayId} and student_id = ${studentId}`;
  if (!day) return null;
  const [answers, steps, names] = await Promise.all([
    sql<{ skill_id: string; role: string; correct: boolean; hinted: boolean; support_step_id: string | null }[]>`
      select skill_id, role, correct, hinted, support_step_id from trn_answers where day_id = ${dayId}`,
    sql<{ step_id: string; target_skill_id: string; level: number; support_skills: string[]; fired_at: Date }[]>`
      select step_id, target_skill_id, level, support_skills, fired_at from trn_support_steps
      where day_id = ${dayId} order by fired_at, step_id`,
    labels(sql),
  ]);
  return {
    id: day.day_id,
    date: day.school_day,
    timeZone: day.time_zone,
    leveled: day.leveled,
    plannedExercises: day.planned_exercises,
    questionsPerExercise: day.questions_per_exercise,
    counted: day.counted,
    correct: day.correct,
    targets: day.targets.map((t) => {
      const mine = answers.filter((a) => a.skill_id === t.skillId);
      return {
        skillId: t.skillId,
        skillLabelAr: names.skill.get(t.skillId) ?? t.skillId,
        levelNumber: t.level,
        levelNameAr: names.level.get(t.level) ?? '',
        questionsAnswered: mine.filter((a) => a.role === 'ordinary').length,
        firstTryCorrect: mine.filter((a) => a.role === 'ordinary' && a.correct).length,
        secondTries: mine.filter((a) => a.role === 'retry').length,
        hintedAnswers: mine.filter((a) => a.hinted).length,
        supportAnswers: mine.filter((a) => a.role === 'support').length,
      };
    }),
    supportSteps: steps.map((s) => {
      const mine = answers.filter((a) => a.support_step_id === s.step_id);
      return {
        id: s.step_id,
        target: s.target_skill_id,
        level: s.level,
        supportSkills: s.support_skills,
        firedAt: s.fired_at.toISOString(),
        answered: mine.length,
        correct: mine.filter((a) => a.correct).length,
      };
    }),
    exit:
      day.exit_planned > 0
        ? { planned: day.exit_planned, answered: day.exit_answered, correct: day.exit_correct }
        : null,
    ended: day.ended_at !== null,
    endReason: day.end_reason,
    feedback: null,
    feedbackAt: null,
  };
}
