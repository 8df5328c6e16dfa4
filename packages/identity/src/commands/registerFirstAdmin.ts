import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { normalizePersonName } from '@qiraa/kernel';
import { hashPassword } from '../engine/passwords';

// Registration is a one-time bootstrap; the lock makes two simultaneous first registrations one.
const REGISTER_LOCK = 727_172_101;

/** Creates the super-scope administrator if, and only if, no user exists yet. */
export async function registerFirstAdmin(
  sql: Sql,
  input: { email: string; password: string; fullNameAr: string },
): Promise<{ id: number; email: string }> {
  const passwordHash = await hashPassword(input.password);
  return (await inTransaction(sql, async ({ sql: tx }) => {
    await tx`select pg_advisory_xact_lock(${REGISTER_LOCK})`;
    const [any] = await tx`select 1 from users limit 1`;
    if (any)
      throw new ApiError(403, 'PERMISSION_DENIED', 'registration is closed; users are created by an administrator');
    const email = input.email.toLowerCase();
    const [row] = await tx<{ id: bigint }[]>`
      insert into users (email, password_hash, full_name_ar, primary_persona, organization_id)
      values (${email}, ${passwordHash}, ${normalizePersonName(input.fullNameAr)}, 'ADMIN', null) returning id`;
    return { id: Number(row!.id), email };
  })) as { id: number; email: string };
}
