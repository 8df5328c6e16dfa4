import type { Sql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import * as oidc from 'openid-client';
import type { Caller } from '../engine/caller';
import { sha256 } from '../engine/passwordlessSecrets';
import { loadCaller } from '../queries/loadCaller';
import { stateExpired } from './handoffCodes';
import { isProviderDown, type OidcClients, providerUnavailable } from './oidcClients';

/** Time to sign in at the provider between start and callback. */
export const OIDC_STATE_SECONDS = 600;

const refused = (why: string) => new ApiError(401, 'INVALID_CREDENTIALS', `school sign-in refused: ${why}`);

/**
 * Starts a sign-in: a fresh state, PKCE verifier (S256) and nonce, kept (the state hashed) for one callback
 * within ten minutes; answers the provider's authorization URL for the browser to go to.
 */
export async function startOidcSignIn(sql: Sql, clients: OidcClients, providerName: string, now: Date) {
  const provider = clients.provider(providerName);
  const config = await clients.configuration(provider);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: provider.redirectUri,
    scope: 'openid email',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into auth_oidc_states (state_hash, provider, code_verifier, nonce, expires_at)
    values (${sha256(state)}, ${provider.name}, ${codeVerifier}, ${nonce},
            ${new Date(now.getTime() + OIDC_STATE_SECONDS * 1000)})
    returning expires_at`;
  return { authorizationUrl: authorizationUrl.href, expiresAt: row!.expires_at.toISOString() };
}

/**
 * Finishes a sign-in. The state is consumed first by compare-and-set (unknown, expired, used, or another
 * provider's: 401 STATE_EXPIRED); then the code is exchanged with the PKCE verifier, the ID token checked
 * (signature, issuer, audience, nonce), and its verified email mapped to an existing, enabled adult. No
 * account is ever created: no such adult, or an unverified email, is 401 INVALID_CREDENTIALS.
 */
export async function finishOidcSignIn(
  sql: Sql,
  clients: OidcClients,
  providerName: string,
  query: Record<string, string | undefined>,
  now: Date,
): Promise<Caller> {
  const provider = clients.provider(providerName);
  const [state] =
    query.state === undefined
      ? []
      : await sql<{ code_verifier: string; nonce: string }[]>`
          update auth_oidc_states set consumed_at = ${now}
          where state_hash = ${sha256(query.state)} and provider = ${provider.name}
            and consumed_at is null and expires_at > ${now}
          returning code_verifier, nonce`;
  if (!state) throw stateExpired('sign-in state');
  const config = await clients.configuration(provider);

  const callbackUrl = new URL(provider.redirectUri);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) callbackUrl.searchParams.set(key, value);
  let email: unknown;
  let verified: unknown;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: state.code_verifier,
      expectedState: query.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    ({ email, email_verified: verified } = claims);
    // Providers that keep the ID token small (OpenID Connect Core 5.4) give the email at userinfo only.
    if (email === undefined || verified === undefined) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      ({ email, email_verified: verified } = info);
    }
  } catch (error) {
    if (isProviderDown(error)) throw providerUnavailable(provider.name);
    throw refused('the provider did not confirm the sign-in');
  }
  if (typeof email !== 'string' || (verified !== true && verified !== 'true')) {
    throw refused('the provider did not vouch for an email address');
  }
  const [user] = await sql<{ id: bigint }[]>`
    select id from users where email = ${email.toLowerCase()} and primary_persona <> 'STUDENT'`;
  const caller = user ? await loadCaller(sql, Number(user.id)) : null;
  if (!caller) throw refused('no enabled adult account has this email');
  return caller;
}
