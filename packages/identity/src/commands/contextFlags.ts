import type { AnySql, Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { ApiError, validationFailed } from '@qiraa/http-kit';

export const CONTEXT_FLAG_BLOCKED = 'CONTEXT_FLAG_BLOCKED';

export interface ContextFlag {
  code: string;
  labelAr: string;
  setAt: string;
}

/** A student's context flags, codes not on the blocked list only (a code blocked later is not shown). */
export async function contextFlagsOf(sql: AnySql, studentId: number): Promise<ContextFlag[]> {
  const rows = await sql<{ code: string; label_ar: string; set_at: Date }[]>`
    select f.code, c.label_ar, f.set_at from student_context_flags f
    join student_context_flag_codes c on c.code = f.code and not c.blocked
    where f.student_id = ${studentId} order by f.code`;
  return rows.map((r) => ({ code: r.code, labelAr: r.label_ar, setAt: r.set_at.toISOString() }));
}

/**
 * Replaces a student's context flags with `codes` (the whole set: an empty list clears them). A code not in the
 * dictionary is 422 VALIDATION_ERROR, a code on the blocked list 403 CONTEXT_FLAG_BLOCKED; either way nothing is
 * written. A flag kept keeps its first `setAt`.
 */
export async function setContextFlags(
  sql: Sql,
  input: { studentId: number; codes: readonly string[]; setBy: number; at: Date },
): Promise<ContextFlag[]> {
  const known = await sql<{ code: string; blocked: boolean }[]>`
    select code, blocked from student_context_flag_codes where code = any(${sql.array([...input.codes])}::text[])`;
  const byCode = new Map(known.map((k) => [k.code, k.blocked]));
  const unknown = input.codes.flatMap((code, i) =>
    byCode.has(code) ? [] : [{ field: `flags/${i}`, issue: 'is not a context flag' }],
  );
  if (unknown.length > 0) throw validationFailed(unknown);
  const blocked = input.codes.flatMap((code, i) =>
    byCode.get(code) ? [{ field: `flags/${i}`, issue: 'is on the blocked list' }] : [],
  );
  if (blocked.length > 0) {
    throw new ApiError(403, CONTEXT_FLAG_BLOCKED, 'a selected context flag is on the blocked list', {
      details: blocked,
    });
  }
  await inTransaction(sql, async ({ sql: tx }) => {
    await tx`
      delete from student_context_flags
      where student_id = ${input.studentId} and code <> all(${tx.array([...input.codes])}::text[])`;
    if (input.codes.length > 0) {
      await tx`
        insert into student_context_flags (student_id, code, set_by, set_at)
        select ${input.studentId}, code, ${input.setBy}, ${input.at} from unnest(${tx.array([...input.codes])}::text[]) code
        on conflict (student_id, code) do nothing`;
    }
  });
  return contextFlagsOf(sql, input.studentId);
}
