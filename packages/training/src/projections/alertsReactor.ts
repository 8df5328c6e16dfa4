import type { TransactionSql } from '@qiraa/db';
import type { NewEvent, OfType, Recorded } from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import { recordAlertEvent } from '../commands/recordAlertEvent';
import {
  TRAINING_DAY_ENDED,
  TRAINING_LEVEL_MOVED,
  TRAINING_LEVEL_STARTED,
  type TrainingDayEnded,
  type TrainingEvent,
} from '../events';
import {
  alertIdOf,
  alertStream,
  resolvedEventIdOf,
  TRAINING_ALERT_RAISED,
  TRAINING_ALERT_RESOLVED,
  type TrainingAlertRaised,
  type TrainingAlertResolved,
} from '../events/alertEvents';
import { CURRENT_ALERT_RULES, decideTrainingAlerts, type StayDay, type TrainingAlertKind } from '../rules/alertRules';

/** What the reactor reads: the level events and the ended days. */
type StayEvent = OfType<
  TrainingEvent,
  typeof TRAINING_LEVEL_STARTED | typeof TRAINING_LEVEL_MOVED | typeof TRAINING_DAY_ENDED
>;

/** A stay at one level of one skill, as the fold holds it. */
interface Stay {
  studentId: number;
  skillId: string;
  organizationId: string | null;
  level: number;
  measureCode: string | null;
  since: string;
  levelEventId: string;
  streamVersion: bigint;
  days: StayDay[];
  /** The ended days already in the stay (a re-delivered day joins it once). */
  dayIds: Set<string>;
  /** The stay's alerts by kind and whether each is still unresolved. */
  alerts: Map<TrainingAlertKind, { alertId: string; unresolved: boolean }>;
  changed: boolean;
}

const keyOf = (studentId: number, skillId: string) => `${studentId}|${skillId}`;

/** The per-skill share of an ended day: its own counts when the event carries them, else the day's. */
function daySkillsOf(d: TrainingDayEnded): { skillId: string; level: number; counted: number; correct: number }[] {
  const bySkill = (d as TrainingDayEnded & { bySkill?: { skillId: string; counted: number; correct: number }[] })
    .bySkill;
  return d.skillIds.map((skillId, i) => {
    const own = bySkill?.find((s) => s.skillId === skillId);
    return {
      skillId,
      level: d.levels[i] ?? d.level,
      counted: own?.counted ?? d.counted,
      correct: own?.correct ?? d.correct,
    };
  });
}

/** The stays of the keys the batch touches, as the reactor's tables and `trn_alerts` hold them before it. */
async function loadStays(
  sql: TransactionSql,
  table: (name: string) => string,
  keys: { studentId: number; skillId: string }[],
): Promise<Map<string, Stay>> {
  const stays = new Map<string, Stay>();
  if (keys.length === 0) return stays;
  const levels = await sql<
    {
      student_id: string;
      skill_id: string;
      organization_id: string | null;
      level: number;
      measure_code: string | null;
      since: string;
      level_event_id: string;
      stream_version: string;
    }[]
  >`
    select l.student_id::text, l.skill_id, l.organization_id, l.level, l.measure_code, l.since::text, l.level_event_id,
           l.stream_version::text
    from ${sql(table('trn_alert_levels'))} l
    join jsonb_to_recordset(${sql.json(keys as never)}) as k("studentId" bigint, "skillId" text)
      on k."studentId" = l.student_id and k."skillId" = l.skill_id`;
  for (const l of levels) {
    stays.set(keyOf(Number(l.student_id), l.skill_id), {
      studentId: Number(l.student_id),
      skillId: l.skill_id,
      organizationId: l.organization_id,
      level: l.level,
      measureCode: l.measure_code,
      since: l.since,
      levelEventId: l.level_event_id,
      streamVersion: BigInt(l.stream_version),
      days: [],
      dayIds: new Set(),
      alerts: new Map(),
      changed: false,
    });
  }
  const stayIds = [...stays.values()].map((s) => s.levelEventId);
  if (stayIds.length === 0) return stays;
  const byStay = new Map([...stays.values()].map((s) => [s.levelEventId, s]));
  const [days, alerts] = await Promise.all([
    sql<{ day_id: string; level_event_id: string; date: string; counted: number; correct: number }[]>`
      select day_id, level_event_id, date::text, counted, correct from ${sql(table('trn_alert_days'))}
      where level_event_id = any(${stayIds}::uuid[]) order by date, ended_at`,
    sql<{ level_event_id: string; kind: TrainingAlertKind; alert_id: string; status: string }[]>`
      select level_event_id, kind, alert_id, status from trn_alerts where level_event_id = any(${stayIds}::uuid[])`,
  ]);
  for (const d of days) {
    const stay = byStay.get(d.level_event_id);
    stay?.days.push({ date: d.date, counted: d.counted, correct: d.correct });
    stay?.dayIds.add(d.day_id);
  }
  for (const a of alerts) {
    byStay.get(a.level_event_id)?.alerts.set(a.kind, { alertId: a.alert_id, unresolved: a.status !== 'resolved' });
  }
  return stays;
}

interface Folded {
  stays: Map<string, Stay>;
  dayRows: Record<string, unknown>[];
  alertEvents: { streamId: string; event: NewEvent<TrainingAlertRaised | TrainingAlertResolved> }[];
}

/**
 * The batch in log order over the stays it touches: a level event resolves the unresolved alerts of the stay it
 * ends (TAL-03) and begins a new stay; an ended day at the stay's level joins it and the rules are evaluated as
 * of that day, raising each kind at most once per stay. Evaluating per event (not once per batch) makes the
 * outcome independent of where batches happen to break.
 */
function fold(events: readonly Recorded<StayEvent>[], stays: Map<string, Stay>): Folded {
  const rules = CURRENT_ALERT_RULES;
  const dayRows: Record<string, unknown>[] = [];
  const alertEvents: Folded['alertEvents'] = [];
  for (const e of events) {
    if (e.type === TRAINING_LEVEL_STARTED || e.type === TRAINING_LEVEL_MOVED) {
      const d = e.data;
      const level = e.type === TRAINING_LEVEL_MOVED ? e.data.toLevel : e.data.level;
      const key = keyOf(d.studentId, d.skillId);
      const old = stays.get(key);
      if (old && old.streamVersion >= e.streamVersion) continue; // already applied
      for (const [, alert] of old?.alerts ?? []) {
        if (!alert.unresolved) continue;
        alert.unresolved = false;
        const data: TrainingAlertResolved = {
          alertId: alert.alertId,
          studentId: d.studentId,
          organizationId: d.organizationId,
          ruleId: rules.resolve.ruleId,
          ruleSetVersion: rules.version,
          levelEventId: e.eventId,
          resolvedAt: e.createdAt.toISOString(),
        };
        alertEvents.push({
          streamId: alertStream(alert.alertId),
          event: {
            eventId: resolvedEventIdOf(alert.alertId),
            type: TRAINING_ALERT_RESOLVED,
            data,
            metadata: { organizationId: d.organizationId },
          },
        });
      }
      stays.set(key, {
        studentId: d.studentId,
        skillId: d.skillId,
        organizationId: d.organizationId,
        level,
        measureCode: d.measureCode,
        since: d.since,
        levelEventId: e.eventId,
        streamVersion: e.streamVersion,
        days: [],
        dayIds: new Set(),
        alerts: new Map(),
        changed: true,
      });
    } else if (e.type === TRAINING_DAY_ENDED) {
      const d = e.data;
      for (const part of daySkillsOf(d)) {
        const stay = stays.get(keyOf(d.studentId, part.skillId));
        const counts = stay && stay.level === part.level;
        dayRows.push({
          day_id: d.dayId,
          skill_id: part.skillId,
          student_id: d.studentId,
          level: part.level,
          date: d.date,
          counted: part.counted,
          correct: Math.min(part.correct, part.counted),
          level_event_id: counts ? stay.levelEventId : null,
          event_id: e.eventId,
          ended_at: e.createdAt.toISOString(),
        });
        if (!counts || stay.dayIds.has(d.dayId)) continue;
        stay.dayIds.add(d.dayId);
        stay.days.push({ date: d.date, counted: part.counted, correct: Math.min(part.correct, part.counted) });
        for (const derived of decideTrainingAlerts({ level: stay.level, since: stay.since, days: stay.days }, rules)) {
          if (stay.alerts.has(derived.kind)) continue;
          const alertId = alertIdOf(d.studentId, part.skillId, stay.levelEventId, derived.kind);
          stay.alerts.set(derived.kind, { alertId, unresolved: true });
          const data: TrainingAlertRaised = {
            alertId,
            studentId: d.studentId,
            organizationId: d.organizationId,
            skillId: part.skillId,
            measureCode: stay.measureCode,
            levelNumber: stay.level,
            kind: derived.kind,
            ruleId: derived.ruleId,
            ruleSetVersion: rules.version,
            levelEventId: stay.levelEventId,
            dayEventId: e.eventId,
            evidence: derived.evidence,
            raisedAt: e.createdAt.toISOString(),
          };
          alertEvents.push({
            streamId: alertStream(alertId),
            event: {
              eventId: alertId,
              type: TRAINING_ALERT_RAISED,
              data,
              metadata: { organizationId: d.organizationId },
            },
          });
        }
      }
    }
  }
  return { stays, dayRows, alertEvents };
}

/** The skills each event of the batch touches. */
function keysOf(events: readonly Recorded<StayEvent>[]): { studentId: number; skillId: string }[] {
  const keys = new Map<string, { studentId: number; skillId: string }>();
  for (const e of events) {
    const d = e.data;
    for (const skillId of e.type === TRAINING_DAY_ENDED ? e.data.skillIds : e.data.skillId ? [e.data.skillId] : []) {
      keys.set(keyOf(d.studentId, skillId), { studentId: d.studentId, skillId });
    }
  }
  return [...keys.values()];
}

/**
 * The training alerts reactor (docs/training-alerts.md): a checkpointed consumer of the level events and the ended
 * days, run by the projection runner. Its two tables are its memory of the stays (rebuildable); the alert events
 * it appends commit with its checkpoint, and `trn_alerts` is applied in the same transaction.
 */
export const alertsReactor = defineProjection<StayEvent>({
  name: 'training_alerts_reactor',
  version: 1,
  handles: [TRAINING_LEVEL_STARTED, TRAINING_LEVEL_MOVED, TRAINING_DAY_ENDED],
  tables: ['trn_alert_levels', 'trn_alert_days'],
  async applyBatch({ sql, table, runner }, events) {
    if (!runner) throw new Error('the training alerts reactor runs only in the projection runner (it appends events)');
    const stays = await loadStays(sql, table, keysOf(events));
    const folded = fold(events, stays);
    const levelRows = [...folded.stays.values()]
      .filter((s) => s.changed)
      .map((s) => ({
        student_id: s.studentId,
        skill_id: s.skillId,
        organization_id: s.organizationId,
        level: s.level,
        measure_code: s.measureCode,
        since: s.since,
        level_event_id: s.levelEventId,
        stream_version: s.streamVersion.toString(),
      }));
    await Promise.all([
      levelRows.length > 0 &&
        sql`
          insert into ${sql(table('trn_alert_levels'))} as s (student_id, skill_id, organization_id, level, measure_code,
            since, level_event_id, stream_version)
          select r.student_id, r.skill_id, r.organization_id, r.level, r.measure_code, r.since, r.level_event_id,
                 r.stream_version
          from jsonb_to_recordset(${sql.json(levelRows as never)}) as r(student_id bigint, skill_id text,
            organization_id text, level int, measure_code text, since date, level_event_id uuid, stream_version bigint)
          on conflict (student_id, skill_id) do update set organization_id = excluded.organization_id,
            level = excluded.level, measure_code = excluded.measure_code, since = excluded.since, level_event_id = excluded.level_event_id,
            stream_version = excluded.stream_version
          where s.stream_version < excluded.stream_version`,
      folded.dayRows.length > 0 &&
        sql`
          insert into ${sql(table('trn_alert_days'))} (day_id, skill_id, student_id, level, date, counted, correct,
            level_event_id, event_id, ended_at)
          select r.day_id, r.skill_id, r.student_id, r.level, r.date, r.counted, r.correct, r.level_event_id,
                 r.event_id, r.ended_at
          from jsonb_to_recordset(${sql.json(folded.dayRows as never)}) as r(day_id uuid, skill_id text,
            student_id bigint, level int, date date, counted int, correct int, level_event_id uuid, event_id uuid,
            ended_at timestamptz)
          on conflict (day_id, skill_id) do nothing`,
    ]);
    // Each alert is its own stream: one command per event, all joining the batch's transaction, so the alerts,
    // `trn_alerts` and the checkpoint commit together. The batch's commit is the runner's: no wake-up here.
    const uow = { sql, afterCommit: () => {} };
    for (const { streamId, event } of folded.alertEvents) await recordAlertEvent(runner, streamId, event, uow);
  },
});
