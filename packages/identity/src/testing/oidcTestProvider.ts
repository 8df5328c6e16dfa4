import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** Accounts of the test identity provider: its subject → the email claims it asserts. */
export type TestAccounts = Record<string, { email: string; email_verified: boolean }>;

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the provider's login page next. */
  loginAs(subject: string): void;
  /** Follows the authorization URL through login like a browser (cookies kept) to the redirect URI. */
  browse(authorizationUrl: string, redirectUri: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a loopback socket: discovery, JWKS with an RS256
 * key made here, authorization with PKCE required, token and userinfo endpoints. Its login page signs in
 * whichever account the spec chose; consent is granted up front (openid email).
 */
export async function startTestIdentityProvider(
  accounts: TestAccounts,
  redirectUri: string,
): Promise<TestIdentityProvider> {
  let provider: Provider | undefined;
  let subject = '';
  const server: Server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(req, res, { login: { accountId: subject } }, { mergeWithLastSubmission: false })
        .catch((error: Error) => res.writeHead(500).end(error.message));
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'qiraa-school';
  const clientSecret = 'qiraa-school-secret-0123456789';
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test-rs256', alg: 'RS256', use: 'sig' } as never] },
    cookies: { keys: ['qiraa-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) =>
      accounts[sub] ? { accountId: sub, claims: () => ({ sub, ...accounts[sub] }) } : undefined,
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });

  return {
    issuer,
    clientId,
    clientSecret,
    loginAs: (s) => {
      subject = s;
    },
    async browse(authorizationUrl, until) {
      const jar = new Map<string, string>();
      let next = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (next.startsWith(until)) return new URL(next);
        const res = await fetch(next, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const cookie of res.headers.getSetCookie()) {
          const pair = cookie.split(';')[0]!;
          const at = pair.indexOf('=');
          const value = pair.slice(at + 1);
          if (value === '') jar.delete(pair.slice(0, at));
          else jar.set(pair.slice(0, at), value);
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`no redirect from ${next}: ${res.status} ${await res.text()}`);
        next = new URL(location, next).href;
      }
      throw new Error('too many redirects');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
