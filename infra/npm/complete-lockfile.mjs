#!/usr/bin/env node
// Adds package-lock entries for optional platform packages that this workplace's npm registry does not
// serve (other operating systems' binaries of biome, rollup, msgpackr-extract): `npm install` cannot record
// what it cannot fetch, and `npm ci` then refuses the lockfile as "Missing: … from lock file". The entries
// carry the os/cpu/libc that the package names encode, so npm skips them on every other platform.
// Run after `npm install` changes the lockfile: `node infra/npm/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'sunos', 'aix'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  eabi: 'arm',
  gnueabihf: 'arm',
  musleabihf: 'arm',
};

/** '@rollup/rollup-linux-arm64-musl' → { os: ['linux'], cpu: ['arm64'], libc: ['musl'] } */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts
    .map((p) => CPU[p])
    .filter(Boolean)
    .at(0);
  if (!os || !cpu) return null;
  const libc =
    parts.includes('musl') || parts.includes('musleabihf')
      ? ['musl']
      : os === 'linux' && parts.includes('gnu')
        ? ['glibc']
        : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const location = `${path ? `${path}/` : ''}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[location] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform entries`);
