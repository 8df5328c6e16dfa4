import { setTimeout as sleep } from 'node:timers/promises';
import { AUDIT_RECORDED, type AuditRecordedData, auditLogProjection, recordAuditEvent } from '@qiraa/audit';
import type { Sql } from '@qiraa/db';
import { type EventStore, type NewEvent, randomEventId } from '@qiraa/eventstore';
import { catchUp, rebuildProjection } from '@qiraa/projections';
import { runWriters, timed } from './measure';

const ORGANIZATIONS = 20;
const BATCH = 500;
const AUDIT_KINDS = ['measurement_void', 'student_export', 'class_transfer', 'role_change', 'login'] as const;

function auditEntry(i: number): Omit<AuditRecordedData, 'occurredAt'> & { occurredAt: Date } {
  return {
    eventType: AUDIT_KINDS[i % AUDIT_KINDS.length]!,
    organizationId: `org_${i % ORGANIZATIONS}`,
    actorUserId: 100 + (i % 37),
    targetStudentId: 1 + (i % 200),
    targetClassId: `class_${i % 25}`,
    detail: { reason: 'data_entry_error', measurementId: i, bulk: i % 2 === 0 },
    occurredAt: new Date(Date.UTC(2025, 0, 1) + i * 1000),
  };
}

/**
 * Writes `total` AuditRecorded events: the first of each organization through `recordAuditEvent`, the rest
 * in appends of up to 500 events of the same shape (one stream per organization, as the command does).
 */
export async function seedAuditEvents(store: EventStore, total: number): Promise<number> {
  const viaCommand = Math.min(total, ORGANIZATIONS);
  for (let i = 0; i < viaCommand; i++) await recordAuditEvent(store, auditEntry(i));
  const batches: Array<{ org: string; events: NewEvent[] }> = [];
  for (let start = viaCommand; start < total; start += BATCH) {
    const byOrg = new Map<string, NewEvent[]>();
    for (let i = start; i < Math.min(total, start + BATCH); i++) {
      const { occurredAt, ...rest } = auditEntry(i);
      const data: AuditRecordedData = { ...rest, occurredAt: occurredAt.toISOString() };
      const metadata = { actorUserId: rest.actorUserId, organizationId: rest.organizationId };
      const org = rest.organizationId!;
      byOrg.set(org, [...(byOrg.get(org) ?? []), { eventId: randomEventId(), type: AUDIT_RECORDED, data, metadata }]);
    }
    for (const [org, events] of byOrg) batches.push({ org, events });
  }
  await runWriters(batches.length, 4, async (i) => {
    const batch = batches[i]!;
    const result = await store.append(`audit-${batch.org}`, batch.events, { expected: 'any' });
    if (result.kind !== 'appended') throw new Error(`seeding audit events: append ${result.kind}`);
  });
  return total;
}

/** The log's visible head can lag behind commits while another transaction on the server is open. */
async function waitUntilVisible(store: EventStore, total: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const visible = await store.countAfter(null, [AUDIT_RECORDED]);
    if (visible >= total) return;
    if (Date.now() > deadline) {
      throw new Error(`only ${visible}/${total} audit events visible after 30 s (an open transaction on the server?)`);
    }
    await sleep(200);
  }
}

async function auditRows(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from audit_log`;
  return row!.n;
}

export interface ProjectionTiming {
  phase: string;
  events: number;
  elapsedMs: number;
}

/** Cold catch-up of the audit_log projection (no checkpoint row, empty table), then a full rebuild. */
export async function benchProjection(sql: Sql, store: EventStore, total: number): Promise<ProjectionTiming[]> {
  await waitUntilVisible(store, total);
  const deps = { sql, store };
  const cold = await timed(() => catchUp(deps, auditLogProjection, 1000));
  if (cold.result.kind !== 'caught_up' || cold.result.rebuilt) {
    throw new Error(`catch-up ended ${JSON.stringify(cold.result)}`);
  }
  const afterCatchUp = await auditRows(sql);
  if (cold.result.applied !== total || afterCatchUp !== total) {
    throw new Error(`catch-up applied ${cold.result.applied} events, audit_log has ${afterCatchUp}, expected ${total}`);
  }
  const rebuild = await timed(() => rebuildProjection(deps, auditLogProjection, { batchSize: 1000 }));
  const afterRebuild = await auditRows(sql);
  if (rebuild.result.applied !== total || afterRebuild !== total) {
    throw new Error(
      `rebuild applied ${rebuild.result.applied} events, audit_log has ${afterRebuild}, expected ${total}`,
    );
  }
  return [
    { phase: 'catchUp (cold checkpoint, batch 1000)', events: cold.result.applied, elapsedMs: cold.elapsedMs },
    { phase: 'rebuildProjection (shadow + swap)', events: rebuild.result.applied, elapsedMs: rebuild.elapsedMs },
  ];
}
