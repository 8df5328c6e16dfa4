import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
// semver is npm's own range parser, already in the tree (no types of its own here: only these two calls).
const semver = createRequire(new URL('package.json', ROOT))('semver') as {
  subset(sub: string, dom: string): boolean;
};

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
}

describe('the Node versions package.json promises (issue 26: npm ci on Node 20 printed engine warnings)', () => {
  it('are supported by every package in package-lock.json', () => {
    const promised = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).engines.node as string;
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as Lock;
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.subset(promised, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
