import type { OfType, Recorded } from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import type { TrainingEvent } from '../events';
import {
  TRAINING_ALERT_ACKNOWLEDGED,
  TRAINING_ALERT_EVENT_TYPES,
  TRAINING_ALERT_RAISED,
  TRAINING_ALERT_RESOLVED,
} from '../events/alertEvents';

interface Row {
  alert_id: string;
  organization_id?: string | null;
  student_id?: number;
  skill_id?: string;
  measure_code?: string | null;
  level_number?: number;
  kind?: string;
  rule_id?: string;
  rule_set_version?: string;
  level_event_id?: string;
  evidence?: unknown;
  raised_at?: string;
  status: string;
  acknowledged_at: string | null;
  acknowledged_by: number | null;
  resolved_at: string | null;
  resolved_by_level_event_id: string | null;
  stream_version: string;
}

/**
 * `trn_alerts`: each alert where it stands. The batch is folded per alert in stream order first (raise, then the
 * acknowledgement and the resolution that follow it), then written with one upsert that moves a row only to a
 * higher stream version, so a batch applied twice (inline, then the runner) changes nothing.
 */
type AlertEvent = OfType<TrainingEvent, (typeof TRAINING_ALERT_EVENT_TYPES)[number]>;

export const alertsProjection = defineProjection<AlertEvent>({
  name: 'training_alerts',
  version: 1,
  handles: TRAINING_ALERT_EVENT_TYPES,
  tables: ['trn_alerts'],
  async applyBatch({ sql, table }, events) {
    const rows = new Map<string, Row>();
    const sorted = [...events].sort((a, b) => (a.streamVersion < b.streamVersion ? -1 : 1));
    for (const e of sorted) fold(rows, e);
    if (rows.size === 0) return;
    const raised = [...rows.values()].filter((r) => r.kind !== undefined);
    const later = [...rows.values()].filter((r) => r.kind === undefined);
    if (raised.length > 0) {
      await sql`
        insert into ${sql(table('trn_alerts'))} as s (alert_id, organization_id, student_id, skill_id, measure_code, level_number,
          kind, rule_id, rule_set_version, level_event_id, evidence, status, raised_at, acknowledged_at,
          acknowledged_by, resolved_at, resolved_by_level_event_id, stream_version)
        select r.alert_id, r.organization_id, r.student_id, r.skill_id, r.measure_code, r.level_number, r.kind, r.rule_id,
               r.rule_set_version, r.level_event_id, r.evidence, r.status, r.raised_at, r.acknowledged_at,
               r.acknowledged_by, r.resolved_at, r.resolved_by_level_event_id, r.stream_version
        from jsonb_to_recordset(${sql.json(raised as never)}) as r(alert_id uuid, organization_id text,
          student_id bigint, skill_id text, measure_code text, level_number int, kind text, rule_id text, rule_set_version text,
          level_event_id uuid, evidence jsonb, status text, raised_at timestamptz, acknowledged_at timestamptz,
          acknowledged_by bigint, resolved_at timestamptz, resolved_by_level_event_id uuid, stream_version bigint)
        on conflict (alert_id) do update set status = excluded.status, acknowledged_at = excluded.acknowledged_at,
          acknowledged_by = excluded.acknowledged_by, resolved_at = excluded.resolved_at,
          resolved_by_level_event_id = excluded.resolved_by_level_event_id, stream_version = excluded.stream_version
        where s.stream_version < excluded.stream_version`;
    }
    if (later.length > 0) {
      // Steps after a raise applied in an earlier batch: only the lifecycle columns move. An acknowledgement
      // never clears a resolution's columns (coalesce), whatever order two batches arrive in.
      await sql`
        update ${sql(table('trn_alerts'))} as s set
          status = r.status,
          acknowledged_at = coalesce(r.acknowledged_at, s.acknowledged_at),
          acknowledged_by = coalesce(r.acknowledged_by, s.acknowledged_by),
          resolved_at = coalesce(r.resolved_at, s.resolved_at),
          resolved_by_level_event_id = coalesce(r.resolved_by_level_event_id, s.resolved_by_level_event_id),
          stream_version = r.stream_version
        from jsonb_to_recordset(${sql.json(later as never)}) as r(alert_id uuid, status text,
          acknowledged_at timestamptz, acknowledged_by bigint, resolved_at timestamptz,
          resolved_by_level_event_id uuid, stream_version bigint)
        where s.alert_id = r.alert_id and s.stream_version < r.stream_version`;
    }
  },
});

function fold(rows: Map<string, Row>, e: Recorded<AlertEvent>): void {
  const { alertId } = e.data;
  const seen = rows.get(alertId);
  const base: Row = seen ?? {
    alert_id: alertId,
    status: 'open',
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by_level_event_id: null,
    stream_version: '0',
  };
  const version = e.streamVersion.toString();
  if (e.type === TRAINING_ALERT_RAISED) {
    const d = e.data;
    rows.set(alertId, {
      ...base,
      organization_id: d.organizationId,
      student_id: d.studentId,
      skill_id: d.skillId,
      measure_code: d.measureCode,
      level_number: d.levelNumber,
      kind: d.kind,
      rule_id: d.ruleId,
      rule_set_version: d.ruleSetVersion,
      level_event_id: d.levelEventId,
      evidence: d.evidence,
      raised_at: d.raisedAt,
      stream_version: version,
    });
  } else if (e.type === TRAINING_ALERT_ACKNOWLEDGED) {
    const d = e.data;
    rows.set(alertId, {
      ...base,
      status: base.status === 'resolved' ? 'resolved' : 'acknowledged',
      acknowledged_at: d.acknowledgedAt,
      acknowledged_by: d.acknowledgedBy,
      stream_version: version,
    });
  } else if (e.type === TRAINING_ALERT_RESOLVED) {
    const d = e.data;
    rows.set(alertId, {
      ...base,
      status: 'resolved',
      resolved_at: d.resolvedAt,
      resolved_by_level_event_id: d.levelEventId,
      stream_version: version,
    });
  }
}
