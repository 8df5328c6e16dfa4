import type { Sql } from '@qiraa/db';
import type { Caller } from '../auth/caller';

/** GET /api/auth/me: the caller, their permissions and the classes they teach (or sit in). */
export async function me(sql: Sql, caller: Caller) {
  const [user] = await sql<{ email: string | null }[]>`select email from users where id = ${caller.userId}`;
  const classes = await sql<{ class_id: string }[]>`
    select class_id from class_teachers where teacher_user_id = ${caller.userId}
    union
    select class_id from class_students where student_user_id = ${caller.userId} and active
    order by 1`;
  return {
    id: caller.userId,
    email: user?.email ?? null,
    primaryPersona: caller.persona,
    organizationId: caller.organizationId,
    permissions: [...caller.permissions],
    classIds: classes.map((c) => c.class_id),
    features: { teacherV3: caller.persona === 'TEACHER' },
  };
}
