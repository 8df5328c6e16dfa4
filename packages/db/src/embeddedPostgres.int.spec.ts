import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from './connect';
import { startEmbeddedPostgres } from './embeddedPostgres';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('starts a real server, lets another process join it, and keeps data across restarts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-embedded-'));
    await chmod(dir, 0o755);
    dirs.push(dir);
    const dataDir = path.join(dir, 'pg');

    const first = await startEmbeddedPostgres(dataDir);
    expect(first.reused).toBe(false);
    expect(first.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    const sql = connect(first.url, { max: 1 });
    await sql`create table kept (n int)`;
    await sql`insert into kept values (42)`;
    const [version] = await sql<{ server_version_num: string }[]>`show server_version_num`;
    expect(Number(version?.server_version_num)).toBeGreaterThanOrEqual(170000);

    const joined = await startEmbeddedPostgres(dataDir);
    expect(joined).toMatchObject({ reused: true, url: first.url });
    await joined.stop(); // joining never stops the owner's server
    expect(await sql`select n from kept`).toEqual([{ n: 42 }]);
    await sql.end();

    await first.stop();
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);

    const again = await startEmbeddedPostgres(dataDir);
    expect(again.reused).toBe(false);
    const sql2 = connect(again.url, { max: 1 });
    expect(await sql2`select n from kept`).toEqual([{ n: 42 }]);
    await sql2.end();
    await again.stop();
  });
});
