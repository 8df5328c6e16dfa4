import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClusterLost, watchJoinedCluster } from './watchJoinedCluster';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A cluster folder whose postmaster.pid names a live pid (this process) and `port`. */
function clusterDir(port: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'qiraa-watch-'));
  dirs.push(dir);
  writePid(dir, port);
  return dir;
}
const writePid = (dir: string, port: number) =>
  writeFileSync(path.join(dir, 'postmaster.pid'), `${process.pid}\n${dir}\n0\n${port}\n\n127.0.0.1\n0\nready\n`);

function watch(dir: string, graceMs = 60_000) {
  const events: ClusterLost[] = [];
  const stop = watchJoinedCluster({ dataDir: dir, port: 5001, ownership: 'joined' }, (event) => events.push(event), {
    intervalMs: 20,
    graceMs,
  });
  return { events, stop };
}

describe('watchJoinedCluster', () => {
  it('reports once, with the new port, when the joined cluster runs on another port', async () => {
    const dir = clusterDir(5001);
    const { events, stop } = watch(dir);
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual([]);
    writePid(dir, 5002);
    await expect.poll(() => events).toHaveLength(1);
    expect(events[0]).toEqual({ port: 5002, line: expect.stringMatching(/moved from port 5001 to 5002.*re-joining/) });
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toHaveLength(1);
    stop();
  });

  it('waits out a restart (no cluster for a while) and reports a stop only after the grace', async () => {
    const dir = clusterDir(5001);
    const { events, stop } = watch(dir, 300);
    rmSync(path.join(dir, 'postmaster.pid'));
    await new Promise((r) => setTimeout(r, 150));
    expect(events).toEqual([]);
    await expect.poll(() => events, { timeout: 2000 }).toHaveLength(1);
    expect(events[0]).toEqual({ port: null, line: expect.stringMatching(/port 5001\) stopped and did not come back/) });
    stop();
  });

  it('watches nothing for a cluster this process started', async () => {
    const dir = clusterDir(5001);
    const events: ClusterLost[] = [];
    const stop = watchJoinedCluster({ dataDir: dir, port: 5001, ownership: 'started' }, (e) => events.push(e), {
      intervalMs: 20,
    });
    writePid(dir, 5002);
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual([]);
    stop();
  });
});
