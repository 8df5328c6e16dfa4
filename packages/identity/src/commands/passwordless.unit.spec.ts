import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { canonicalHandoffCode, HANDOFF_CODE_LENGTH, newHandoffCode } from '../engine/passwordlessSecrets';
import { isProviderDown } from './oidcClients';
import { challengeOf } from './passkeyChallenges';

describe('handoff code form', () => {
  it('is 10 Crockford base32 symbols, and all 32 symbols occur', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const code = newHandoffCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      for (const c of code) seen.add(c);
    }
    expect(HANDOFF_CODE_LENGTH).toBe(10);
    expect(seen.size).toBe(32);
  });

  it('reads what a person typed: lower case, O for 0, I and L for 1', () => {
    expect(canonicalHandoffCode('ab0o1il9zz')).toBe('AB001119ZZ');
  });
});

describe('challengeOf', () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  it('reads the challenge of a clientDataJSON and nothing else', () => {
    expect(challengeOf(encode({ type: 'webauthn.get', challenge: 'abc' }))).toBe('abc');
    expect(challengeOf(encode({ challenge: 7 }))).toBeNull();
    expect(challengeOf(encode(null))).toBeNull();
    expect(challengeOf(encode({ challenge: 'x'.repeat(513) }))).toBeNull();
    expect(challengeOf('not-json')).toBeNull();
  });
});

describe('isProviderDown', () => {
  it("is the provider's trouble for network failures, timeouts and 5xx; the sign-in's for OAuth answers", () => {
    expect(isProviderDown(new TypeError('fetch failed'))).toBe(true);
    expect(isProviderDown(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(true);
    expect(isProviderDown(Object.assign(new Error('wrapped'), { cause: new TypeError('fetch failed') }))).toBe(true);
    const body = (status: number) =>
      new oidc.ResponseBodyError('server error', {
        cause: { error: 'server_error' },
        response: new Response(null, { status }),
      });
    expect(isProviderDown(body(503))).toBe(true);
    expect(isProviderDown(body(400))).toBe(false);
    expect(isProviderDown(new Error('JWT signature verification failed'))).toBe(false);
  });
});
