import { skillsQuery, trainingLevelsQuery } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { userTimeZone } from '@qiraa/identity';
import { academicYearOf, schoolDayOf } from '../engine/schoolDay';
import type { LevelStartSource, MoveDirection, TrainingLevelNumber } from '../events';

/** An alert open on a level row (filled by the alerts part through `registerOpenAlertsSource`). */
export interface OpenAlertRef {
  alertId: string;
  kind: 'no_progress_at_level' | 'support_review_suggested';
  acknowledged: boolean;
}

/** One row of GET /api/training/students/{studentId}/levels (spec: Training level row). */
export interface TrainingLevelRow {
  skillId: string;
  skillLabelAr: string;
  /** The skill's screening measure; null for a skill no screening measure covers. */
  measureCode: string | null;
  level: { number: TrainingLevelNumber; nameAr: string };
  since: string;
  startedFrom: LevelStartSource;
  lastMove: { direction: MoveDirection; at: string; fromLevel: TrainingLevelNumber } | null;
  openAlerts: OpenAlertRef[];
}

/**
 * Where a level row's open alerts come from: the alerts part registers one at load
 * (`registerOpenAlertsSource`); without one every row has `openAlerts: []`.
 * Returns the alerts per skill id for one student.
 */
export type OpenAlertsSource = (sql: AnySql, studentId: number) => Promise<Map<string, OpenAlertRef[]>>;

let openAlertsSource: OpenAlertsSource | null = null;

export function registerOpenAlertsSource(source: OpenAlertsSource | null): void {
  openAlertsSource = source;
}

/**
 * The academic year a child with no level yet is in: the one today's school day (the organization's time zone)
 * falls in, the same rule that files a training day's levels under its year (`academicYearOf`).
 */
async function currentAcademicYear(sql: AnySql, studentId: number, now: Date): Promise<string> {
  return academicYearOf(schoolDayOf(now, (await userTimeZone(sql, studentId)) ?? 'Asia/Amman'));
}

/**
 * The student's current level per skill in the newest academic year that has levels, with the catalog's skill
 * and level labels, in catalog order; until leveled training started, no row and the current academic year.
 */
export async function trainingLevelsOf(
  sql: AnySql,
  studentId: number,
  now: Date,
): Promise<{ academicYear: string; levels: TrainingLevelRow[] }> {
  const rows = await sql<
    {
      academic_year: string;
      skill_id: string;
      label_ar: string;
      measure_code: string | null;
      level: number;
      name_ar: string;
      since: string;
      started_from: LevelStartSource;
      last_move_direction: MoveDirection | null;
      last_move_at: Date | null;
      last_move_from_level: number | null;
    }[]
  >`
    select l.academic_year, l.skill_id, k.label_ar, l.measure_code, l.level, tl.name_ar, l.since::text,
           l.started_from, l.last_move_direction, l.last_move_at, l.last_move_from_level
    from trn_levels l
    join (${skillsQuery(sql)}) k on k.id = l.skill_id
    join (${trainingLevelsQuery(sql)}) tl on tl.number = l.level
    where l.student_id = ${studentId}
      and l.academic_year = (select max(academic_year) from trn_levels where student_id = ${studentId})
    order by k.ordinal`;
  if (rows.length === 0) return { academicYear: await currentAcademicYear(sql, studentId, now), levels: [] };
  const alerts = openAlertsSource ? await openAlertsSource(sql, studentId) : new Map<string, OpenAlertRef[]>();
  return {
    academicYear: rows[0]!.academic_year,
    levels: rows.map((r) => ({
      skillId: r.skill_id,
      skillLabelAr: r.label_ar,
      measureCode: r.measure_code,
      level: { number: r.level as TrainingLevelNumber, nameAr: r.name_ar },
      since: r.since,
      startedFrom: r.started_from,
      lastMove:
        r.last_move_direction && r.last_move_at
          ? {
              direction: r.last_move_direction,
              at: r.last_move_at.toISOString(),
              fromLevel: r.last_move_from_level as TrainingLevelNumber,
            }
          : null,
      openAlerts: alerts.get(r.skill_id) ?? [],
    })),
  };
}
