import type { Sql } from '@qiraa/db';
import type { Caller } from '../engine/caller';
import { type Persona, permissionsFor } from '../engine/permissions';

interface Row {
  id: bigint;
  primary_persona: Persona;
  organization_id: string | null;
  school_id: string | null;
}

/**
 * The caller as the database knows it now: a disabled user, a user of a disabled organization, or a student
 * no longer actively enrolled in any class has no caller, so a still-valid token stops working at once.
 */
export async function loadCaller(sql: Sql, userId: number): Promise<Caller | null> {
  const [row] = await sql<Row[]>`
    select u.id, u.primary_persona, u.organization_id, u.school_id
    from users u left join organizations o on o.id = u.organization_id
    where u.id = ${userId} and u.disabled_at is null and o.disabled_at is null
      and (u.primary_persona <> 'STUDENT'
           or exists (select 1 from class_students cs where cs.student_user_id = u.id and cs.active))`;
  if (!row) return null;
  return {
    userId: Number(row.id),
    persona: row.primary_persona,
    organizationId: row.organization_id,
    schoolId: row.school_id,
    permissions: permissionsFor(row.primary_persona, row.organization_id),
  };
}
