import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict, notFound } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import { classInScope } from '../queries/scope';

/**
 * Deletes a class with no active students, together with its code history, teacher links and the rows of
 * students deactivated from it (their user records stay). The class row is locked first, so an enrollment
 * running at the same time either finishes before (and the delete answers 409) or finds the class gone.
 */
export async function deleteClass(sql: Sql, caller: Caller, classId: string): Promise<void> {
  await classInScope(sql, caller, classId, 'manage');
  await inTransaction(sql, async ({ sql: tx }) => {
    const [cls] = await tx`select 1 from classes where id = ${classId} for update`;
    if (!cls) throw notFound('class');
    const [active] = await tx`select 1 from class_students where class_id = ${classId} and active limit 1`;
    if (active) throw conflict('class_has_students', 'the class still has active students; deactivate them first');
    await tx`delete from class_students where class_id = ${classId}`;
    await tx`delete from class_teachers where class_id = ${classId}`;
    await tx`delete from class_login_codes where class_id = ${classId}`;
    await tx`delete from classes where id = ${classId}`;
  });
}
