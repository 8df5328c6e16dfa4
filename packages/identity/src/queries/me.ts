import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';

/** GET /api/auth/me: the caller, their permissions and the classes they teach (or sit in). */
export async function me(sql: Sql, caller: Caller) {
  // One round trip: this is the route every client calls first, and the tenant context is already cached.
  const [user] = await sql<{ email: string | null; class_ids: string[] }[]>`
    select u.email, array(
      select class_id from class_teachers where teacher_user_id = u.id
      union
      select class_id from class_students where student_user_id = u.id and active
      order by 1) as class_ids
    from users u where u.id = ${caller.userId}`;
  return {
    id: caller.userId,
    email: user?.email ?? null,
    primaryPersona: caller.persona,
    organizationId: caller.organizationId,
    permissions: [...caller.permissions],
    classIds: user?.class_ids ?? [],
    features: { teacherV3: caller.persona === 'TEACHER' },
  };
}
