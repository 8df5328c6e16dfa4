import type { Sql, TransactionSql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict } from '@qiraa/http-kit';
import type { Clock } from '@qiraa/kernel';
import type { DeliveryMode } from '../codes';
import { type SessionRow, sessionRow, slotsOf } from '../queries/sessionQueries';
import { type RenderedSheets, renderSheets } from '../queries/sheetBatch';
import { logTransition } from './sessionLog';

/**
 * Delivery (docs/sessions.md, "Transition to delivered"). Each route serves the modes it names and moves the
 * session to delivered only when it completes that mode: distribute-online an online session, generate-pdfs
 * a printable one, deliver-mixed a mixed one (online slots queued and printed sheets made in one call).
 * distribute-online and generate-pdfs also do their half of a mixed session without the transition. Repeats
 * after delivery are allowed and change nothing (idempotent per student).
 */

type DeliveryRoute = 'distribute_online' | 'generate_pdfs' | 'deliver_mixed';
const SERVES: Record<DeliveryRoute, readonly DeliveryMode[]> = {
  distribute_online: ['online', 'mixed'],
  generate_pdfs: ['printable', 'mixed'],
  deliver_mixed: ['mixed'],
};
const COMPLETES: Record<DeliveryRoute, DeliveryMode> = {
  distribute_online: 'online',
  generate_pdfs: 'printable',
  deliver_mixed: 'mixed',
};

function assertDeliverable(row: SessionRow, route: DeliveryRoute): void {
  if (row.status !== 'previewed' && row.status !== 'delivered') {
    throw conflict('not_previewed', `the session is ${row.status}; accept it first`);
  }
  if (!row.delivery_mode || !SERVES[route].includes(row.delivery_mode)) {
    throw conflict('delivery_mode_mismatch', `the session was accepted for ${row.delivery_mode} delivery`);
  }
}

/**
 * Queues the online slots not queued yet (one update: a slot is queued once, whatever runs in parallel), at
 * the app's clock (the queue orders and supersedes by it, like a slot queued by its printed link).
 */
async function queueOnline(tx: TransactionSql, sessionId: string, now: Date) {
  const queued = await tx<{ student_id: string }[]>`
    update ses_session_students set online_queued_at = ${now}
    where session_id = ${sessionId} and included and medium = 'online' and online_queued_at is null
    returning student_id`;
  const all = await tx<{ student_id: string }[]>`
    select student_id from ses_session_students
    where session_id = ${sessionId} and included and medium = 'online' order by student_id`;
  const fresh = new Set(queued.map((q) => Number(q.student_id)));
  return {
    queued: [...fresh].sort((a, b) => a - b),
    alreadyQueued: all.map((a) => Number(a.student_id)).filter((id) => !fresh.has(id)),
  };
}

/** `now`: the clock's (`deps.clock`): the session's deliveredAt. */
async function markDelivered(tx: TransactionSql, row: SessionRow, route: DeliveryRoute, actorId: number, now: Date) {
  if (row.status !== 'previewed' || row.delivery_mode !== COMPLETES[route]) return row.status;
  await tx`
    update ses_sessions set status = 'delivered', delivered_by = ${route}, delivered_at = ${now}, updated_at = ${now}
    where id = ${row.id}`;
  await logTransition(tx, row.id, 'delivered', actorId, { by: route });
  return 'delivered' as const;
}

// The runtime's clock (the routes pass `ContextDeps`); the wall clock only for a caller without one.
const nowOf = (deps: { clock?: Clock }) => deps.clock?.now() ?? new Date();

export async function distributeOnline(deps: { sql: Sql; clock?: Clock }, actorId: number, sessionId: string) {
  return inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    assertDeliverable(row, 'distribute_online');
    const online = await queueOnline(tx, sessionId, nowOf(deps));
    if (online.queued.length > 0) await logTransition(tx, sessionId, 'online_queued', actorId, online);
    const status = await markDelivered(tx, row, 'distribute_online', actorId, nowOf(deps));
    return { sessionId, status, online };
  });
}

/** The printed slots' sheets, rendered outside the transaction; the 422 of the filter leaves everything as it was. */
async function printedSheets(sql: Sql, row: SessionRow): Promise<RenderedSheets> {
  const slots = (await slotsOf(sql, row.id)).filter((s) => s.included && s.medium === 'printable');
  return renderSheets(sql, row, slots);
}

async function recordSheets(tx: TransactionSql, sessionId: string, sheets: RenderedSheets, actorId: number) {
  for (const p of sheets.pdfs) {
    await tx`update ses_session_students set pdf_sha256 = ${p.sha256}
             where session_id = ${sessionId} and student_id = ${p.studentId}`;
  }
  await logTransition(tx, sessionId, 'pdfs_generated', actorId, {
    students: sheets.pdfs.map((p) => p.studentId),
    zipSha256: sheets.zipSha256,
  });
}

export async function generatePdfs(deps: { sql: Sql; clock?: Clock }, actorId: number, sessionId: string) {
  assertDeliverable(await sessionRow(deps.sql, sessionId), 'generate_pdfs');
  const sheets = await printedSheets(deps.sql, await sessionRow(deps.sql, sessionId));
  const status = await inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    assertDeliverable(row, 'generate_pdfs');
    await recordSheets(tx, sessionId, sheets, actorId);
    return markDelivered(tx, row, 'generate_pdfs', actorId, nowOf(deps));
  });
  return { status, sheets };
}

export async function deliverMixed(deps: { sql: Sql; clock?: Clock }, actorId: number, sessionId: string) {
  assertDeliverable(await sessionRow(deps.sql, sessionId), 'deliver_mixed');
  const sheets = await printedSheets(deps.sql, await sessionRow(deps.sql, sessionId));
  return inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    assertDeliverable(row, 'deliver_mixed');
    const online = await queueOnline(tx, sessionId, nowOf(deps));
    if (online.queued.length > 0) await logTransition(tx, sessionId, 'online_queued', actorId, online);
    await recordSheets(tx, sessionId, sheets, actorId);
    const status = await markDelivered(tx, row, 'deliver_mixed', actorId, nowOf(deps));
    return {
      sessionId,
      status,
      online,
      printed: {
        studentIds: sheets.pdfs.map((p) => p.studentId),
        zipBytes: sheets.zip.byteLength,
        zipSha256: sheets.zipSha256,
      },
    };
  });
}
