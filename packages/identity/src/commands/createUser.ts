import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { normalizePersonName } from '@qiraa/kernel';
import { type Caller, isSuperAdmin } from '../engine/caller';
import { hashPassword } from '../engine/passwords';
import type { Persona } from '../engine/permissions';
import { classInScope, inOrganizationOr404, unprocessableField } from '../queries/scope';
import type { NewUser } from '../schemas/tenancySchemas';
import { enrollStudent } from './enrollStudent';

export type { NewUser } from '../schemas/tenancySchemas';

const UNIQUE_VIOLATION = '23505';

/** POST /api/users: one persona per branch of the body; adults by email and password, students into a class. */
export async function createUser(sql: Sql, caller: Caller, input: NewUser): Promise<{ id: number }> {
  if (input.primaryPersona === 'STUDENT') {
    const cls = await classInScope(sql, caller, input.classId, 'manage_students');
    const { studentId } = await enrollStudent(sql, cls, input);
    return { id: studentId };
  }
  const organizationId: string | null = input.organizationId ?? null;
  if (organizationId === null) {
    // Only the super-scope administrator creates another super-scope administrator.
    if (input.primaryPersona !== 'ADMIN' || !isSuperAdmin(caller)) {
      throw unprocessableField('organizationId', 'is required');
    }
  } else {
    const [org] = await sql`select 1 from organizations where id = ${organizationId}`;
    inOrganizationOr404(caller, org ? organizationId : null, 'organization');
  }
  let schoolId: string | null = null;
  if (input.primaryPersona === 'PRINCIPAL') {
    const [school] = await sql<
      { organization_id: string }[]
    >`select organization_id from schools where id = ${input.schoolId}`;
    inOrganizationOr404(caller, school?.organization_id, 'school');
    if (school!.organization_id !== organizationId)
      throw unprocessableField('schoolId', 'must belong to organizationId');
    schoolId = input.schoolId;
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await sql<{ id: bigint }[]>`
      insert into users (email, password_hash, full_name_ar, primary_persona, organization_id, school_id)
      values (${input.email.toLowerCase()}, ${passwordHash}, ${normalizePersonName(input.fullNameAr)}, ${input.primaryPersona satisfies Persona},
              ${organizationId}, ${schoolId})
      returning id`;
    return { id: Number(row!.id) };
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ApiError(409, 'EMAIL_EXISTS', 'a user with this email exists');
    }
    throw error;
  }
}
