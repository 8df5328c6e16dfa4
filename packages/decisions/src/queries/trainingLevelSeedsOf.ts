import type { ScreeningWindow } from '@qiraa/assessment';
import type { AnySql } from '@qiraa/db';

/** A skill's standing training-level seed (rule TLS-01): where its training starts (`startedFrom: screen`). */
export interface TrainingLevelSeed {
  skillId: string;
  measureCode: string;
  level: 1 | 2 | 3 | 4;
  seedId: string;
  window: ScreeningWindow;
  academicYear: string;
  decidedAt: string;
  ruleSetVersion: string;
  /** The sitting whose measure result seeded it. */
  sessionId: string;
  /** Read with a cut table still being normed. */
  provisional: boolean;
}

/**
 * The latest standing seed per skill of a student from `dec_training_seeds`: the newest window (academic year,
 * then BOY < MOY < EOY) whose seed stands (a retracted window falls back to the window before it), optionally
 * within one academic year. Ordered by skill id.
 */
export async function trainingLevelSeedsOf(
  sql: AnySql,
  studentId: number,
  options: { academicYear?: string } = {},
): Promise<TrainingLevelSeed[]> {
  const rows = await sql<
    {
      skill_id: string;
      measure_code: string;
      level: number;
      seed_id: string;
      evidence_window: ScreeningWindow;
      academic_year: string;
      decided_at: Date;
      rule_set_version: string;
      session_id: string;
      provisional: boolean;
    }[]
  >`
    select distinct on (skill_id) skill_id, measure_code, level, seed_id, evidence_window, academic_year,
           decided_at, rule_set_version, session_id, provisional
    from dec_training_seeds
    where student_id = ${studentId} and seed_id is not null
      ${options.academicYear === undefined ? sql`` : sql`and academic_year = ${options.academicYear}`}
    order by skill_id, academic_year desc, array_position(array['BOY','MOY','EOY'], evidence_window) desc`;
  return rows.map((r) => ({
    skillId: r.skill_id,
    measureCode: r.measure_code,
    level: r.level as 1 | 2 | 3 | 4,
    seedId: r.seed_id,
    window: r.evidence_window,
    academicYear: r.academic_year,
    decidedAt: r.decided_at.toISOString(),
    ruleSetVersion: r.rule_set_version,
    sessionId: r.session_id,
    provisional: r.provisional,
  }));
}
