import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import type { PasswordlessSettings } from '@qiraa/kernel';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Caller } from '../engine/caller';
import { type Passkey, passkeysOf } from '../queries/passkeys';
import { stateExpired } from './handoffCodes';
import { CHALLENGE_SECONDS, challengeOf, consumeChallenge, storeChallenge } from './passkeyChallenges';
import { webauthn } from './webauthn';

/** Passkeys are for adults: students sign in with their class code and quick code. */
export function assertAdult(caller: Caller): void {
  if (caller.persona === 'STUDENT') {
    throw new ApiError(403, 'PERMISSION_DENIED', 'passkeys are for adult accounts');
  }
}

/**
 * Creation options for a discoverable passkey (resident key required, user verification required, so the
 * passkey alone is a second factor's worth), the user's passkeys excluded. The user handle is the user id
 * in decimal: not secret, and no name or email goes into it.
 */
export async function passkeyRegistrationOptions(
  sql: Sql,
  settings: PasswordlessSettings,
  caller: Caller,
  now: Date,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  assertAdult(caller);
  const [user] = await sql<{ email: string | null; full_name_ar: string | null }[]>`
    select email, full_name_ar from users where id = ${caller.userId}`;
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: settings.webauthn.rpName,
    rpID: settings.webauthn.rpId,
    userName: user?.email ?? `user-${caller.userId}`,
    userDisplayName: user?.full_name_ar ?? '',
    userID: new TextEncoder().encode(String(caller.userId)),
    timeout: CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(sql, caller.userId)).map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(sql, options.challenge, 'registration', caller.userId, now);
  return options;
}

/**
 * Verifies the attestation against the caller's own unconsumed challenge, the configured origins and RP id,
 * and stores the credential. A consumed, expired or foreign challenge: 401 STATE_EXPIRED; a response that
 * fails verification (wrong origin, RP id, signature, no user verification): 422.
 */
export async function verifyPasskeyRegistration(
  sql: Sql,
  settings: PasswordlessSettings,
  caller: Caller,
  response: RegistrationResponseJSON,
  now: Date,
): Promise<Passkey> {
  assertAdult(caller);
  const challenge = challengeOf(response.response.clientDataJSON);
  if (challenge === null || !(await consumeChallenge(sql, challenge, 'registration', caller.userId, now))) {
    throw stateExpired('passkey challenge');
  }
  const { verifyRegistrationResponse } = await webauthn();
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: [...settings.webauthn.origins],
    expectedRPID: settings.webauthn.rpId,
    requireUserVerification: true,
  }).catch((error: Error) => ({ verified: false as const, why: error.message }));
  if (!verification.verified) {
    const why = 'why' in verification ? verification.why : 'attestation not verified';
    throw new ApiError(422, 'VALIDATION_ERROR', 'the passkey registration was not accepted', {
      details: [{ field: 'response', issue: why.slice(0, 200) }],
    });
  }
  const info = verification.registrationInfo;
  const [row] = await sql<{ id: string }[]>`
    insert into auth_webauthn_credentials (id, user_id, public_key, sign_count, transports, device_type, backed_up)
    values (${info.credential.id}, ${caller.userId}, ${Buffer.from(info.credential.publicKey)},
            ${info.credential.counter}, ${response.response.transports ?? []}, ${info.credentialDeviceType},
            ${info.credentialBackedUp})
    on conflict (id) do nothing
    returning id`;
  if (!row) throw new ApiError(409, 'CONFLICT', 'this passkey is already registered');
  const created = (await passkeysOf(sql, caller.userId)).find((p) => p.id === row.id);
  return created!;
}
