import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * JWT_SECRET in production (required there). Elsewhere a random secret is kept in DATA_DIR so tokens
 * survive a restart of the development server; tests pass their own.
 */
export function resolveJwtSecret(env: { jwtSecret?: string; nodeEnv: string; dataDir: string }): string {
  if (env.jwtSecret) {
    if (env.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return env.jwtSecret;
  }
  if (env.nodeEnv === 'production') throw new Error('JWT_SECRET is required when NODE_ENV=production');
  const file = path.join(env.dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
