import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import type { PasswordlessSettings } from '@qiraa/kernel';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Caller } from '../engine/caller';
import { loadCaller } from '../queries/loadCaller';
import { stateExpired } from './handoffCodes';
import { CHALLENGE_SECONDS, challengeOf, consumeChallenge, storeChallenge } from './passkeyChallenges';
import { webauthn } from './webauthn';

const rejected = () => new ApiError(401, 'INVALID_CREDENTIALS', 'the passkey sign-in was not accepted');

/**
 * Request options without allowCredentials: the authenticator offers its discoverable passkeys, so the
 * route names no user and cannot be used to learn which emails have passkeys.
 */
export async function passkeyAuthenticationOptions(
  sql: Sql,
  settings: PasswordlessSettings,
  now: Date,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: settings.webauthn.rpId,
    timeout: CHALLENGE_SECONDS * 1000,
    userVerification: 'required',
  });
  await storeChallenge(sql, options.challenge, 'authentication', null, now);
  return options;
}

/**
 * Signs an adult in with a passkey assertion. The challenge is consumed first (a replayed assertion finds
 * it consumed: 401 STATE_EXPIRED); then the signature, origin, RP id, user verification and the signature
 * counter are checked (a counter not above the stored one, unless both are 0 as synced passkeys send: 401
 * INVALID_CREDENTIALS). The new counter is written by compare-and-set on the old one.
 */
export async function verifyPasskeyAuthentication(
  sql: Sql,
  settings: PasswordlessSettings,
  response: AuthenticationResponseJSON,
  now: Date,
): Promise<Caller> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (challenge === null || !(await consumeChallenge(sql, challenge, 'authentication', null, now))) {
    throw stateExpired('passkey challenge');
  }
  const [stored] = await sql<{ user_id: bigint; public_key: Buffer; sign_count: bigint; transports: string[] }[]>`
    select user_id, public_key, sign_count, transports from auth_webauthn_credentials where id = ${response.id}`;
  if (!stored) throw rejected();
  const { verifyAuthenticationResponse } = await webauthn();
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: [...settings.webauthn.origins],
    expectedRPID: settings.webauthn.rpId,
    credential: {
      id: response.id,
      publicKey: new Uint8Array(stored.public_key),
      counter: Number(stored.sign_count),
      transports: stored.transports,
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) throw rejected();
  const moved = await sql`
    update auth_webauthn_credentials
    set sign_count = ${verification.authenticationInfo.newCounter}, last_used_at = ${now},
        backed_up = ${verification.authenticationInfo.credentialBackedUp}
    where id = ${response.id} and sign_count = ${stored.sign_count}
    returning 1`;
  if (moved.length !== 1) throw rejected();
  const caller = await loadCaller(sql, Number(stored.user_id));
  if (!caller) throw new ApiError(401, 'SESSION_REVOKED', 'the account or its organization is disabled');
  return caller;
}
