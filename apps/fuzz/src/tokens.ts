import { createHmac } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header = '', payload = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')),
  };
}

function sign(header: Record<string, unknown>, payload: Record<string, unknown>, secret: string): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/**
 * Tokens no server should accept, derived from a real one: expired (correctly signed), signed with another
 * secret, `alg: none`, and a truncated signature. Values are `Authorization` header values.
 */
export function badAuthorizations(realToken: string, secret: string): Record<string, string> {
  const { header, payload } = decode(realToken);
  const now = Math.floor(Date.now() / 1000);
  const expired = sign(header, { ...payload, iat: now - 7200, exp: now - 3600 }, secret);
  const wrongSecret = sign(header, { ...payload, exp: now + 3600 }, 'not-the-server-secret-0123456789abcdef');
  const algNone = `${b64({ ...header, alg: 'none' })}.${b64({ ...payload, exp: now + 3600 })}.`;
  const notYet = sign(header, { ...payload, iat: now + 3600, nbf: now + 3600, exp: now + 7200 }, secret);
  return {
    expired: `Bearer ${expired}`,
    'wrong-secret': `Bearer ${wrongSecret}`,
    'alg-none': `Bearer ${algNone}`,
    'not-yet-valid': `Bearer ${notYet}`,
    truncated: `Bearer ${realToken.slice(0, -10)}`,
    garbage: 'Bearer not.a.jwt',
    'empty-bearer': 'Bearer ',
    'basic-scheme': 'Basic dXNlcjpwYXNzd29yZA==',
    'no-scheme': realToken,
  };
}
