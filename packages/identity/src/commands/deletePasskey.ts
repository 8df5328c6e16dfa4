import type { AnySql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';

/** Deletes one of the caller's passkeys; anyone else's, or none, is 404 (a passkey is never shown to others). */
export async function deletePasskey(sql: AnySql, userId: number, credentialId: string): Promise<void> {
  const rows = await sql`
    delete from auth_webauthn_credentials where id = ${credentialId} and user_id = ${userId} returning 1`;
  if (rows.length !== 1) throw new ApiError(404, 'NOT_FOUND', 'passkey not found');
}
