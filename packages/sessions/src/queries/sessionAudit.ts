import type { AnySql } from '@qiraa/db';
import type { Static } from 'typebox';
import type { AuditSchema } from '../schemas/sessionSchemas';
import { sessionRow, slotsOf } from './sessionQueries';

type Audit = Static<typeof AuditSchema>;

/**
 * The replay record of a session: the pins taken at accept (before accept, the blueprint pin only) and an
 * aggregate snapshot with each slot's frozen items, medium, override, queueing and PDF hash, plus the log.
 */
export async function sessionAudit(sql: AnySql, sessionId: string): Promise<Audit> {
  const row = await sessionRow(sql, sessionId);
  const [[bp], slots, log] = await Promise.all([
    sql<{ external_id: string; content_hash: string }[]>`
      select external_id, content_hash from ses_blueprints where id = ${row.blueprint_id}`,
    slotsOf(sql, sessionId),
    sql<{ action: string; actor_id: string | null; at: Date; detail: Record<string, unknown> }[]>`
      select action, actor_id, at, detail from ses_session_log where session_id = ${sessionId} order by id`,
  ]);
  const pins = (row.pins ?? {}) as Partial<Audit['pins']>;
  const included = slots.filter((s) => s.included);
  return {
    sessionId,
    status: row.status,
    pins: {
      blueprintId: row.blueprint_id,
      blueprintExternalId: bp!.external_id,
      blueprintVersion: row.blueprint_version,
      blueprintContentHash: bp!.content_hash,
      itemBankPinId: pins.itemBankPinId ?? null,
      decisionRuleSetVersion: pins.decisionRuleSetVersion ?? '',
      decisionRuleSetVersionsSeen: pins.decisionRuleSetVersionsSeen ?? [],
      languageSafetyRuleSetVersion: pins.languageSafetyRuleSetVersion ?? null,
      catalogVersion: pins.catalogVersion ?? null,
    },
    snapshot: {
      counts: {
        students: slots.length,
        included: included.length,
        heldOut: slots.length - included.length,
        overridden: slots.filter((s) => s.override_code !== null).length,
        online: included.filter((s) => s.medium === 'online').length,
        printable: included.filter((s) => s.medium === 'printable').length,
        onlineQueued: slots.filter((s) => s.online_queued_at !== null).length,
        pdfGenerated: slots.filter((s) => s.pdf_sha256 !== null).length,
      },
      slots: slots
        .map((s) => ({
          studentId: Number(s.student_id),
          slotId: s.slot_id,
          included: s.included,
          heldOutReason: s.held_out_reason,
          overrideCode: s.override_code,
          medium: s.medium,
          itemIds: s.item_ids,
          onlineQueuedAt: s.online_queued_at?.toISOString() ?? null,
          pdfSha256: s.pdf_sha256,
        }))
        .sort((a, b) => a.studentId - b.studentId),
    },
    log: log.map((l) => ({
      action: l.action,
      actorId: l.actor_id === null ? null : Number(l.actor_id),
      at: l.at.toISOString(),
      detail: l.detail,
    })),
  };
}
