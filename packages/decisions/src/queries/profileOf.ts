import type { ScreeningWindow } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { AnySql, Sql } from '@qiraa/db';
import { classRoster } from '@qiraa/identity';
import type { ProfileQuery, ProfileView, RecommendationView } from '../schemas/profileSchemas';
import { safeStopCode } from '../schemas/safeStopCode';

const WINDOW_RANK = "array_position(array['BOY','MOY','EOY'], evidence_window)";

interface ProfileRow {
  student_id: string;
  academic_year: string;
  evidence_window: ScreeningWindow;
  profile_code: ProfileView['profileCode'];
  profile_name: ProfileView['profileName'];
  do_not_decide_yet: boolean;
  groups: ProfileView['groups'];
  domains: ProfileView['domains'];
  missing_domains: string[];
  rule_set_version: string;
  skill_status_decision_ids: string[];
  profile_decision_id: string;
  decided_at: Date;
}

interface RecommendationRow {
  student_id: string;
  academic_year: string;
  evidence_window: ScreeningWindow;
  outcome: RecommendationView['outcome'];
  rule_id: string;
  profile_code: RecommendationView['profileCode'];
  bundle_id: string | null;
  anchor_skill_group: string | null;
  anchor_skill_id: string | null;
  scaffold_tier: RecommendationView['scaffoldTier'];
  sufficient_data: boolean;
  next_data_action: RecommendationView['nextDataAction'];
  next_data_steps: RecommendationView['nextDataSteps'];
  rule_set_version: string;
  recommendation_id: string;
  profile_decision_id: string;
  decided_at: Date;
}

const profileView = (r: ProfileRow): ProfileView => ({
  academicYear: r.academic_year,
  window: r.evidence_window,
  profileCode: r.profile_code,
  profileName: r.profile_name,
  safeStop: r.do_not_decide_yet ? 'DATA_INCOMPLETE' : null,
  doNotDecideYet: r.do_not_decide_yet,
  code: safeStopCode(r.do_not_decide_yet),
  groups: r.groups,
  domains: r.domains,
  missingDomains: [...r.missing_domains],
  ruleSetVersion: r.rule_set_version,
  skillStatusDecisionIds: [...r.skill_status_decision_ids],
  profileDecisionId: r.profile_decision_id,
  decidedAt: r.decided_at.toISOString(),
});

async function recommendationView(sql: AnySql, r: RecommendationRow): Promise<RecommendationView> {
  const bundle = r.bundle_id ? (await loadCatalog(sql)).supportBundles.find((b) => b.id === r.bundle_id) : undefined;
  return {
    academicYear: r.academic_year,
    window: r.evidence_window,
    outcome: r.outcome,
    code: safeStopCode(r.outcome === 'blocked_insufficient_evidence'),
    ruleId: r.rule_id,
    profileCode: r.profile_code,
    bundleId: r.bundle_id,
    bundleLabelAr: bundle?.labelAr ?? null,
    steps: bundle?.steps ?? [],
    anchorSkillGroup: r.anchor_skill_group,
    anchorSkillId: r.anchor_skill_id,
    scaffoldTier: r.scaffold_tier,
    sufficientData: r.sufficient_data,
    nextDataAction: r.next_data_action,
    nextDataSteps: r.next_data_steps,
    ruleSetVersion: r.rule_set_version,
    recommendationId: r.recommendation_id,
    profileDecisionId: r.profile_decision_id,
    decidedAt: r.decided_at.toISOString(),
  };
}

const PROFILE_COLUMNS = `student_id::text, academic_year, evidence_window, profile_code, profile_name, do_not_decide_yet,
  groups, domains, missing_domains, rule_set_version, skill_status_decision_ids::text[] as skill_status_decision_ids,
  profile_decision_id::text, decided_at`;
const RECOMMENDATION_COLUMNS = `student_id::text, academic_year, evidence_window, outcome, rule_id, profile_code,
  bundle_id, anchor_skill_group, anchor_skill_id, scaffold_tier, sufficient_data, next_data_action, next_data_steps,
  rule_set_version, recommendation_id::text, profile_decision_id::text, decided_at`;

/**
 * The windows a student has a profile for, newest first, and the one a query picks: the window asked for (in
 * the academic year asked for, else the newest year that has it), or the newest.
 */
export async function profileWindowsOf(sql: AnySql, studentId: number, query: ProfileQuery = {}) {
  const windows = (
    await sql<{ academic_year: string; evidence_window: ScreeningWindow }[]>`
      select academic_year, evidence_window, ${sql.unsafe(WINDOW_RANK)} as rank from dec_profiles
      where student_id = ${studentId} order by academic_year desc, rank desc`
  ).map((w) => ({ academicYear: w.academic_year, window: w.evidence_window }));
  const chosen = windows.find(
    (w) =>
      (query.window === undefined || w.window === query.window) &&
      (query.academicYear === undefined || w.academicYear === query.academicYear),
  );
  return { windows, chosen: chosen ?? null };
}

/**
 * A student's profile of one window (`dec_profiles`): the window asked for, else the newest; null when none.
 * `profileCode` PR2-00 (`safeStop: DATA_INCOMPLETE`) is the guard: clusters and bulk activation leave the
 * student out. For clusters and the parent portal (which shows no code: it turns the profile into labels).
 */
export async function profileOf(sql: AnySql, studentId: number, query: ProfileQuery = {}): Promise<ProfileView | null> {
  const { chosen } = await profileWindowsOf(sql, studentId, query);
  if (!chosen) return null;
  const [row] = await sql<ProfileRow[]>`
    select ${sql.unsafe(PROFILE_COLUMNS)} from dec_profiles
    where student_id = ${studentId} and academic_year = ${chosen.academicYear} and evidence_window = ${chosen.window}`;
  return row ? profileView(row) : null;
}

/** The guard profile: the student is left out of clustering and bulk activation (`moreDataNeeded`). */
export const isDataIncomplete = (profile: Pick<ProfileView, 'profileCode'> | null) =>
  profile === null || profile.profileCode === 'PR2-00';

/**
 * The profiles of a class's active students (ascending student id): per student the window asked for, else
 * the student's newest. A student with no profile yet has `profile: null`.
 */
export async function profilesOfClass(
  sql: Sql,
  classId: string,
  query: ProfileQuery = {},
): Promise<{ studentId: number; profile: ProfileView | null }[]> {
  const students = await studentsOf(sql, classId);
  const rows = await sql<ProfileRow[]>`
    select distinct on (student_id) ${sql.unsafe(PROFILE_COLUMNS)} from dec_profiles
    where student_id = any(${sql.array(students.map(String), 20)}::bigint[])
      and (${query.window ?? null}::text is null or evidence_window = ${query.window ?? null})
      and (${query.academicYear ?? null}::text is null or academic_year = ${query.academicYear ?? null})
    order by student_id, academic_year desc, ${sql.unsafe(WINDOW_RANK)} desc`;
  const byStudent = new Map(rows.map((r) => [Number(r.student_id), profileView(r)]));
  return students.map((studentId) => ({ studentId, profile: byStudent.get(studentId) ?? null }));
}

/**
 * A student's bundle recommendation of one window (`dec_recommendations`, with the bundle's catalog steps):
 * the window asked for, else the newest with a profile; null when none. `blocked_insufficient_evidence` names
 * the next data action. For clusters (bundleId, anchorSkillGroup, scaffoldTier, sufficientData) and the
 * parent portal (an active profile assignment; GL-005 when there is none).
 */
export async function recommendationOf(
  sql: AnySql,
  studentId: number,
  query: ProfileQuery = {},
): Promise<RecommendationView | null> {
  const { chosen } = await profileWindowsOf(sql, studentId, query);
  if (!chosen) return null;
  const [row] = await sql<RecommendationRow[]>`
    select ${sql.unsafe(RECOMMENDATION_COLUMNS)} from dec_recommendations
    where student_id = ${studentId} and academic_year = ${chosen.academicYear} and evidence_window = ${chosen.window}`;
  return row ? recommendationView(sql, row) : null;
}

/** The recommendations of a class's active students (ascending student id), as `profilesOfClass`. */
export async function recommendationsOfClass(
  sql: Sql,
  classId: string,
  query: ProfileQuery = {},
): Promise<{ studentId: number; recommendation: RecommendationView | null }[]> {
  const students = await studentsOf(sql, classId);
  const rows = await sql<RecommendationRow[]>`
    select distinct on (student_id) ${sql.unsafe(RECOMMENDATION_COLUMNS)} from dec_recommendations
    where student_id = any(${sql.array(students.map(String), 20)}::bigint[])
      and (${query.window ?? null}::text is null or evidence_window = ${query.window ?? null})
      and (${query.academicYear ?? null}::text is null or academic_year = ${query.academicYear ?? null})
    order by student_id, academic_year desc, ${sql.unsafe(WINDOW_RANK)} desc`;
  const byStudent = new Map<number, RecommendationView>();
  for (const r of rows) byStudent.set(Number(r.student_id), await recommendationView(sql, r));
  return students.map((studentId) => ({ studentId, recommendation: byStudent.get(studentId) ?? null }));
}

async function studentsOf(sql: Sql, classId: string): Promise<number[]> {
  return classRoster(sql, classId);
}
