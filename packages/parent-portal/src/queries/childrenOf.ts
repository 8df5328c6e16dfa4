import { attemptHistoryOf } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { type ChildPlacement, childrenOfParent, studentPlacement } from '@qiraa/identity';
import type { ChildrenResponse } from '../schemas';

/** The first word of a full Arabic name: a parent's view names the child by first name only. */
export const firstNameOf = (fullNameAr: string) => fullNameAr.trim().split(/\s+/)[0] ?? fullNameAr;

type Row = ChildPlacement;

/**
 * The caller's linked children (spec: first name, grade level, school name, last-active timestamp), by first
 * name. The grade and school are those of the child's active class (the newest one); last active is the start
 * of the child's latest assessment activity that stands (a voided attempt is out of every read).
 */
export function childrenOf(sql: Sql, parentUserId: number): Promise<ChildrenResponse> {
  return entries(sql, childrenOfParent(sql, parentUserId));
}

/** One child's entry (the PDF's header), whoever asks. */
export async function childEntryOf(sql: Sql, studentId: number): Promise<ChildrenResponse[number]> {
  const [entry] = await entries(sql, studentPlacement(sql, studentId));
  return entry!;
}

async function entries(sql: Sql, query: Promise<Row[]>): Promise<ChildrenResponse> {
  const [rows, catalog] = await Promise.all([query, loadCatalog(sql)]);
  const gradeName = new Map(catalog.grades.map((g) => [g.grade as number, g.nameAr]));
  return Promise.all(
    rows.map(async (r) => {
      const id = Number(r.id);
      const latest = await attemptHistoryOf(sql, { studentId: id, includeVoided: false, after: null, limit: 1 });
      return {
        childId: id,
        firstName: firstNameOf(r.full_name_ar),
        gradeLabel: (r.grade !== null && gradeName.get(r.grade)) || 'المرحلة الأساسية',
        schoolName: r.school_name ?? 'المدرسة',
        lastActiveAt: latest.rows[0]?.startedAt ?? null,
      };
    }),
  );
}
