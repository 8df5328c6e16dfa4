import { connect } from '@qiraa/db';
import type { Tally } from './load';
import { runCli } from './processes';

export interface Verdict {
  lost: number;
  doubleApplied: number;
  /** Not acknowledged yet stored: allowed only where a process was killed between commit and answer. */
  unacknowledgedStored: number;
}

/** `qiraa gamification replay --all`: every student's ledger folded again and compared with the stored one. */
export async function driftCheck(databaseUrl: string): Promise<{ drift: number; detail: string }> {
  const replay = await runCli(['gamification', 'replay', '--all'], databaseUrl);
  if (replay.code === 0) return { drift: 0, detail: '' };
  const lines = replay.stdout.split('\n').filter((l) => /derived/.test(l));
  return { drift: Math.max(1, lines.length), detail: `${replay.stdout.slice(-600)}${replay.stderr.slice(-600)}` };
}

/** What the database holds for the run's ids against what the clients were told. */
export async function verify(databaseUrl: string, prefix: string, tally: Tally): Promise<Verdict> {
  const sql = connect(databaseUrl, { max: 1 });
  try {
    const rows = await sql<{ id: string; n: number }[]>`
      select engine_event_id as id, count(*)::int as n from gam_mastery_events
      where engine_event_id like ${`${prefix}-%`} group by engine_event_id`;
    const stored = new Map(rows.map((r) => [r.id, r.n]));
    let lost = 0;
    for (const id of tally.acknowledged) if (!stored.has(id)) lost++;
    let unacknowledgedStored = 0;
    for (const id of tally.unacknowledged) if (stored.has(id)) unacknowledgedStored++;
    const doubleApplied = rows.filter((r) => r.n > 1).length;
    return { lost, doubleApplied, unacknowledgedStored };
  } finally {
    await sql.end({ timeout: 2 });
  }
}
