import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Sql } from '@qiraa/db';

/** CPU seconds a phase cost: this process (the API and the bench's own clients) and the server's backends. */
export interface PhaseCpu {
  appSeconds: number;
  /** The backends serving the bench database, when the server runs on this machine (else null). */
  serverSeconds: number | null;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of a local process in clock ticks, or null when it is not ours to see (another machine). */
function ticksOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

async function backendTicks(sql: Sql): Promise<Map<number, number> | null> {
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    const t = ticksOf(pid);
    if (t === null) return null;
    ticks.set(pid, t);
  }
  return ticks;
}

/**
 * Starts measuring; the returned function ends the phase. Absolute timings are noisy on a shared machine,
 * CPU seconds per operation much less so. A backend that closed during the phase is missed (the pool's stay).
 */
export async function phaseCpu(sql: Sql, label: string): Promise<() => Promise<PhaseCpu>> {
  // BENCH_CPU_PROFILE=<dir>: a V8 CPU profile of this phase alone (this process's main thread), <dir>/<label>.cpuprofile.
  const dir = process.env.BENCH_CPU_PROFILE;
  const session = dir ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const app = process.cpuUsage();
  const server = await backendTicks(sql);
  return async () => {
    const used = process.cpuUsage(app);
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${dir}/${label}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    }
    const now = server ? await backendTicks(sql) : null;
    let serverTicks: number | null = null;
    if (server && now) {
      serverTicks = 0;
      for (const [pid, t] of now) serverTicks += t - (server.get(pid) ?? 0);
    }
    return {
      appSeconds: (used.user + used.system) / 1e6,
      serverSeconds: serverTicks === null ? null : serverTicks / TICKS_PER_SECOND,
    };
  };
}

/** "app 1.23 ms + server 0.45 ms" per operation. */
export function perOperation(cpu: PhaseCpu, operations: number): string {
  const ms = (s: number) => `${((s / operations) * 1000).toFixed(2)} ms`;
  return `app ${ms(cpu.appSeconds)} + server ${cpu.serverSeconds === null ? 'n/a' : ms(cpu.serverSeconds)} CPU per operation`;
}
