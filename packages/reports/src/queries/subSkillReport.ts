import type { Sql } from '@qiraa/db';
import { type SkillStatusQuery, skillStatusOf, trainingLevelSeedsOf } from '@qiraa/decisions';
import type { SubSkillReportResponse } from '../schemas';
import type { SessionKind } from './sessionKinds';

/** The session kind of an oral read's cell: a passage is an oral reading, anything else a word-list read. */
const readKind = (cell: string): SessionKind => (cell === 'oral_text' ? 'oral_text' : 'oral_word_list');

/**
 * A student's sub-skill report for one window: the decisions context's skill statuses (the same rows as
 * `GET /api/sse/students/{id}/skill-status`) with the sessions each decision rests on, so a teacher opens them
 * with the session detail. The sessions come from the decision's own evidence summary: a void has already
 * taken its attempt out of it.
 */
export async function subSkillReport(
  sql: Sql,
  studentId: number,
  query: SkillStatusQuery,
): Promise<SubSkillReportResponse> {
  const status = await skillStatusOf(sql, studentId, query);
  // The skill's training level of the report's year: its screen seed until training moves it.
  const seeds = status.academicYear
    ? await trainingLevelSeedsOf(sql, studentId, { academicYear: status.academicYear })
    : [];
  const levelOf = new Map(seeds.map((s) => [s.skillId, s.level]));
  return {
    ...status,
    rows: status.rows.map((row) => {
      const sittings = [...new Set(row.evidence.measures.map((m) => m.sessionId))];
      return {
        ...row,
        sessions: [
          ...sittings.map((sessionId) => ({ kind: 'digital_sitting' as const, sessionId })),
          ...row.evidence.reads.map((r) => ({ kind: readKind(r.cell), sessionId: r.attemptId })),
        ],
        trainingLevel: (row.skillId && levelOf.get(row.skillId)) || null,
      };
    }),
  };
}
