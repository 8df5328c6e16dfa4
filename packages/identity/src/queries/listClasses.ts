import type { Sql } from '@qiraa/db';
import { type Caller, holds, isSuperAdmin } from '../engine/caller';
import { toClassResponse } from './classResponse';
import type { ClassRow } from './scope';

/**
 * The classes the caller reaches: all (super admin), the organization's, the school's, or the ones taught;
 * `schoolId` narrows any of them (a school outside the caller's reach gives an empty list).
 */
export async function listClasses(sql: Sql, caller: Caller, filter: { schoolId?: string }) {
  const school = filter.schoolId ?? null;
  let rows: ClassRow[];
  if (isSuperAdmin(caller)) {
    rows = await sql<
      ClassRow[]
    >`select * from classes where (${school}::text is null or school_id = ${school}) order by name, id`;
  } else if (holds(caller, 'MANAGE_ORG', 'VIEW_ORGANIZATION')) {
    rows = await sql<ClassRow[]>`
      select * from classes where organization_id = ${caller.organizationId}
        and (${school}::text is null or school_id = ${school}) order by name, id`;
  } else if (holds(caller, 'VIEW_SCHOOL')) {
    rows = await sql<ClassRow[]>`
      select * from classes where school_id = ${caller.schoolId}
        and (${school}::text is null or school_id = ${school}) order by name, id`;
  } else if (holds(caller, 'VIEW_OWN_CLASSES')) {
    rows = await sql<ClassRow[]>`
      select c.* from classes c join class_teachers t on t.class_id = c.id
      where t.teacher_user_id = ${caller.userId}
        and (${school}::text is null or c.school_id = ${school}) order by c.name, c.id`;
  } else {
    rows = [];
  }
  return rows.map(toClassResponse);
}
