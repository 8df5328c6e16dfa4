import { ApiError } from '@qiraa/http-kit';
import type { OidcProviderSettings } from '@qiraa/kernel';
import * as oidc from 'openid-client';

/** A provider slower than this to answer is treated as down. */
const PROVIDER_TIMEOUT_SECONDS = 5;

export const providerUnavailable = (name: string) =>
  new ApiError(503, 'IDENTITY_PROVIDER_UNAVAILABLE', `the school sign-in provider "${name}" cannot be reached`);

/**
 * A network failure, a timeout or a 5xx from the provider: its trouble, not the user's (503). Anything the
 * provider answered deliberately (an OAuth error, a bad ID token) is the sign-in's (401).
 */
export function isProviderDown(error: unknown): boolean {
  if (error instanceof oidc.ResponseBodyError) return error.status >= 500;
  if (error instanceof oidc.AuthorizationResponseError) return false;
  const e = error as { name?: string; code?: string; cause?: unknown } | null;
  if (e?.name === 'TypeError' || e?.name === 'AbortError' || e?.name === 'TimeoutError') return true;
  if (e?.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || e?.code === 'OAUTH_TIMEOUT') return true;
  return e?.cause !== undefined && e.cause !== error ? isProviderDown(e.cause) : false;
}

const isLoopback = (issuer: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(issuer).hostname);

/**
 * The discovered configuration of each provider, fetched on first use and kept; a failed discovery is not
 * kept, so the next sign-in tries again. Plain http is allowed only for a loopback issuer (a provider
 * running beside the API in development and in the specs).
 */
export function oidcClients(providers: readonly OidcProviderSettings[]) {
  const byName = new Map(providers.map((p) => [p.name, p]));
  const discovered = new Map<string, Promise<oidc.Configuration>>();

  async function discover(provider: OidcProviderSettings): Promise<oidc.Configuration> {
    const config = await oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      { redirect_uris: [provider.redirectUri], response_types: ['code'] },
      provider.clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(provider.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        ...(isLoopback(provider.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    );
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    return config;
  }

  return {
    /** The provider's settings, or 404 for a name that is not configured. */
    provider(name: string): OidcProviderSettings {
      const provider = byName.get(name);
      if (!provider) throw new ApiError(404, 'NOT_FOUND', 'no such sign-in provider');
      return provider;
    },
    /** The provider's discovered configuration; 503 IDENTITY_PROVIDER_UNAVAILABLE when it cannot be had. */
    async configuration(provider: OidcProviderSettings): Promise<oidc.Configuration> {
      let pending = discovered.get(provider.name);
      if (!pending) {
        pending = discover(provider);
        discovered.set(provider.name, pending);
      }
      try {
        return await pending;
      } catch {
        discovered.delete(provider.name);
        throw providerUnavailable(provider.name);
      }
    },
  };
}
export type OidcClients = ReturnType<typeof oidcClients>;
