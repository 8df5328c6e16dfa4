import { randomInt } from 'node:crypto';
import type { TestApp } from '@qiraa/app/testing';
import { useTestApp } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';

const behindProxy = useTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
const direct = useTestApp();

// Class codes use this alphabet (identity ids.ts); a random one is unknown, so every login below fails.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const unknownClassCode = () => Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** A failed student login from `forwardedFor` (through the local proxy address), with a fresh unknown class code. */
const failedLogin = (t: TestApp, forwardedFor: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/student/quickcode',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { classCode: unknownClassCode(), quickCode: '05' },
  });

async function exhaustSource(t: TestApp, forwardedFor: string) {
  for (let i = 0; i < 20; i += 1) {
    const res = await failedLogin(t, forwardedFor);
    expect(res.json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
  }
  expect((await failedLogin(t, forwardedFor)).json().code).toBe('QUICKCODE_RATE_LIMIT');
}

describe('TRUST_PROXY and the per-source student-login limit', () => {
  it('behind a trusted proxy, each forwarded client address has its own window', async () => {
    await exhaustSource(behindProxy, '203.0.113.1');
    expect((await failedLogin(behindProxy, '203.0.113.2')).json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
  });

  it('without it (the default), X-Forwarded-For is ignored: every client shares the socket address', async () => {
    await exhaustSource(direct, '203.0.113.1');
    expect((await failedLogin(direct, '203.0.113.2')).json().code).toBe('QUICKCODE_RATE_LIMIT');
  });
});
