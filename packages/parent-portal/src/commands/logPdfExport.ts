import { AUDIT_RECORDED, type AuditRecordedData, auditStreamId } from '@qiraa/audit';
import { type Decider, handleCommand, withoutRead } from '@qiraa/command-kit';
import type { Sql } from '@qiraa/db';
import { type EventStore, type NewEvent, randomEventId } from '@qiraa/eventstore';
import type { Clock } from '@qiraa/kernel';
import { parentPortalCommands } from '../commandContext';

/** The data-access event type of a teacher's parent-PDF export (spec: `export_pdf`). */
export const EXPORT_PDF = 'export_pdf';

export interface LogPdfExport {
  readonly eventId: string;
  readonly organizationId: string;
  readonly actorUserId: number;
  readonly studentId: number;
  readonly occurredAt: string;
}

/** Every export is logged (the organization's audit stream is not read: each export is one more entry). */
export const logPdfExportDecider: Decider<LogPdfExport, NewEvent<AuditRecordedData>, null> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: ({ eventId, organizationId, actorUserId, studentId, occurredAt }) => [
    {
      eventId,
      type: AUDIT_RECORDED,
      data: {
        eventType: EXPORT_PDF,
        organizationId,
        actorUserId,
        targetStudentId: studentId,
        detail: { document: 'parent_growth_report' },
        occurredAt,
      },
      metadata: { actorUserId, organizationId },
    },
  ],
};

/**
 * The data-access log row of a teacher's PDF export: one `AuditRecorded` (`export_pdf`) on the organization's
 * audit stream and its `audit_log` row, in one transaction, committed before the PDF is sent. Any failure throws:
 * the route then answers 500 and sends no PDF (an export nobody logged never happens).
 */
export async function logPdfExport(
  /** `clock`: the runtime's; the entry's occurredAt is its now. */
  deps: { sql: Sql; store: EventStore; clock: Clock },
  entry: { organizationId: string; actorUserId: number; studentId: number },
): Promise<string> {
  const eventId = randomEventId();
  const result = await handleCommand(deps, {
    context: parentPortalCommands,
    streamId: auditStreamId(entry.organizationId),
    decider: logPdfExportDecider,
    command: { eventId, ...entry, occurredAt: deps.clock.now().toISOString() },
    // The organization's audit stream takes every entry: nothing to read.
    load: withoutRead(null),
  });
  if (result.kind !== 'appended') throw new Error(`export_pdf audit append: ${result.kind}`);
  return eventId;
}
