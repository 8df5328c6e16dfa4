import { AUDIT_RECORDED, type AuditRecordedData, auditLogProjection, auditStreamId } from '@qiraa/audit';
import { inTransaction, type Sql } from '@qiraa/db';
import { type EventStore, randomEventId } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';

/** The data-access event type of a teacher's parent-PDF export (spec: `export_pdf`). */
export const EXPORT_PDF = 'export_pdf';

/**
 * The data-access log row of a teacher's PDF export: one `AuditRecorded` (`export_pdf`) on the organization's
 * audit stream and its `audit_log` row, in one transaction, committed before the PDF is sent. Any failure throws:
 * the route then answers 500 and sends no PDF (an export nobody logged never happens).
 */
export async function logPdfExport(
  deps: { sql: Sql; store: EventStore },
  entry: { organizationId: string; actorUserId: number; studentId: number },
): Promise<string> {
  const eventId = randomEventId();
  const data: AuditRecordedData = {
    eventType: EXPORT_PDF,
    organizationId: entry.organizationId,
    actorUserId: entry.actorUserId,
    targetStudentId: entry.studentId,
    detail: { document: 'parent_growth_report' },
    occurredAt: new Date().toISOString(),
  };
  await inTransaction(deps.sql, async (uow) => {
    const result = await deps.store.append(
      auditStreamId(entry.organizationId),
      [
        {
          eventId,
          type: AUDIT_RECORDED,
          data,
          metadata: { actorUserId: entry.actorUserId, organizationId: entry.organizationId },
        },
      ],
      { expected: 'any', uow },
    );
    if (result.kind !== 'appended') throw new Error(`export_pdf audit append: ${result.kind}`);
    await applyInline(uow, auditLogProjection, result.events);
  });
  return eventId;
}
