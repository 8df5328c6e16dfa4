import { readFile } from 'node:fs/promises';
import { approveImportBatch, type ImportBodyInput, importContent } from '@qiraa/content';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { recordEvidence } from '../commands/recordEvidence';
import { ATTEMPT_VOIDED, type AttemptKind, type AttemptVoided, streams } from '../events';

/** Test kit of the oral specs: the demo pack's content, an open window, a void as the void route will write it. */

const PACK = new URL('../../../../content/pack/', import.meta.url);

/** Imports and approves demo-pack files as global content (the CLI's `content import` does the same per file). */
export async function importDemoFiles(sql: Sql, files: readonly string[]): Promise<void> {
  for (const file of files) {
    const body = JSON.parse(await readFile(new URL(file, PACK), 'utf8')) as ImportBodyInput;
    const report = await importContent({ sql }, { organizationId: null, createdBy: null, body });
    const rejected = report.rows.filter((r) => r.rejectReason !== null);
    if (rejected.length > 0) throw new Error(`${file}: ${rejected.map((r) => r.rejectReason).join(', ')}`);
    const approval = await approveImportBatch({ sql }, { batchId: report.batchId, approvedBy: null, exceptions: [] });
    if (approval.outcome !== 'approved') throw new Error(`${file}: approval ${approval.outcome}`);
  }
}

const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Stores an organization's calendar for the academic year with `open` covering today (give a few days either
 * side for the time zone) and the other windows outside it, in calendar order; `open: null` leaves every
 * window away from today.
 */
export async function setWindows(
  sql: Sql,
  organizationId: string,
  academicYear: string,
  open: 'BOY' | 'MOY' | 'EOY' | null,
): Promise<void> {
  const starts = { BOY: -5, MOY: 10, EOY: 30 };
  if (open === 'MOY') Object.assign(starts, { BOY: -30, MOY: -5, EOY: 30 });
  if (open === 'EOY') Object.assign(starts, { BOY: -60, MOY: -30, EOY: -5 });
  if (open === null) Object.assign(starts, { BOY: 10, MOY: 30, EOY: 50 });
  await sql`delete from asm_window_calendars where organization_id = ${organizationId} and academic_year = ${academicYear}`;
  for (const [window, start] of Object.entries(starts)) {
    await sql`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
      values (${organizationId}, ${academicYear}, ${window}, ${dayOffset(start)}, ${dayOffset(start + 10)})`;
  }
}

let voids = 0;

/** Appends an AttemptVoided to the attempt's stream with the projections inline, as the void route will. */
export async function voidAttempt(sql: Sql, store: EventStore, kind: AttemptKind, attemptId: string) {
  const [row] = await sql<{ id: string }[]>`select nextval('asm_void_id_seq')::text as id`;
  const id = row!.id;
  const data: AttemptVoided = {
    attemptId,
    kind,
    voidId: Number(id),
    reason: 'started_by_mistake',
    actorUserId: 1,
    endedActiveSitting: false,
    at: new Date(Date.now() + voids++).toISOString(),
  };
  await inTransaction(sql, (uow) =>
    recordEvidence(uow, store, streams.ofKind(kind, attemptId), [{ type: ATTEMPT_VOIDED, data }]),
  );
  return Number(id);
}

/**
 * Streams and attempts stored: a refused request must leave both unchanged. The decisions a downstream context
 * derives from accepted evidence (`decision-<id>` streams) and the credits gamification records from them (a
 * reaction, which may commit a moment after the request that caused it) are not this context's writes and are
 * left out.
 */
const DOWNSTREAM = ['decision', 'mastery', 'xp', 'badgeaward', 'badgerescind', 'gamnotice'];

export async function writeCounts(sql: Sql) {
  const [row] = await sql<{ streams: number; events: number; attempts: number; uses: number }[]>`
    select (select count(*)::int from es_streams where stream_type <> all(${DOWNSTREAM}::text[])) as streams,
           (select count(*)::int from es_events
            where split_part(stream_id, '-', 1) <> all(${DOWNSTREAM}::text[])) as events,
           (select count(*)::int from asm_attempts) as attempts,
           (select count(*)::int from content_word_list_uses) as uses`;
  return row!;
}
