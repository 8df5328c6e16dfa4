import type { AnySql } from '@qiraa/db';
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
  measureCode: string;
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

/** The student's current level per skill (empty until leveled training started). */
export async function trainingLevelsOf(
  sql: AnySql,
  studentId: number,
): Promise<{ academicYear: string | null; levels: TrainingLevelRow[] }> {
  void sql;
  void studentId;
  const alerts = openAlertsSource ? await openAlertsSource(sql, studentId) : new Map<string, OpenAlertRef[]>();
  void alerts;
  return { academicYear: null, levels: [] };
}
