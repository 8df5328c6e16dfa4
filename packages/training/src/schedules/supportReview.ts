import { organizationTimeZonesQuery } from '@qiraa/identity';
import { addDays, defineSchedule } from '@qiraa/kernel';
import { recordAlertEvent } from '../commands/recordAlertEvent';
import { schoolDayOf } from '../engine/schoolDay';
import { alertIdOf, alertStream, TRAINING_ALERT_RAISED, type TrainingAlertRaised } from '../events/alertEvents';
import { CURRENT_ALERT_RULES, supportReviewAsOf } from '../rules/alertRules';

interface StayRow {
  student_id: string;
  skill_id: string;
  organization_id: string | null;
  level: number;
  measure_code: string | null;
  since: string;
  level_event_id: string;
  time_zone: string;
  days: { date: string; counted: number; correct: number; event_id: string }[];
}

/**
 * TAL-02 every day for every levelled child (docs/training-alerts.md): the alerts reactor evaluates it when a day
 * ends, so a child who stopped practising would never reach it; this evaluates each stay at the rule's level that
 * has no support-review alert yet as of the organization's calendar day. The alert is the one the reactor would
 * raise (its deterministic id, the same stream), so neither raises it twice; the alerts notifier sends it to the
 * teachers like any other (dispatch with a dedupe key).
 */
export const supportReviewSchedule = defineSchedule({
  name: 'training.support-review',
  cadence: 'daily',
  description: 'TAL-02 (21 days at level 1 with 3+ training days) for every levelled child',
  async run(deps, tick) {
    const rules = CURRENT_ALERT_RULES;
    const sr = rules.supportReview;
    const now = tick.dueAt;
    const stays = await deps.sql<StayRow[]>`
      select l.student_id::text, l.skill_id, l.organization_id, l.level, l.measure_code, l.since::text,
             l.level_event_id, coalesce(o.time_zone, 'Asia/Amman') as time_zone,
             coalesce((select json_agg(json_build_object('date', d.date::text, 'counted', d.counted,
                                       'correct', d.correct, 'event_id', d.event_id) order by d.date, d.ended_at)
                       from trn_alert_days d where d.level_event_id = l.level_event_id), '[]') as days
      from trn_alert_levels l left join (${organizationTimeZonesQuery(deps.sql)}) o on o.id = l.organization_id
      where l.level = ${sr.level} and l.since <= ${addDays(schoolDayOf(now, 'UTC'), 1 - sr.minDaysAtLevel)}::date
        and not exists (select 1 from trn_alerts a where a.level_event_id = l.level_event_id and a.kind = 'support_review_suggested')
      order by l.student_id, l.skill_id`;
    let raised = 0;
    for (const s of stays) {
      const derived = supportReviewAsOf(
        { level: s.level, since: s.since, days: s.days },
        schoolDayOf(now, s.time_zone),
        rules,
      );
      if (!derived) continue;
      const studentId = Number(s.student_id);
      const alertId = alertIdOf(studentId, s.skill_id, s.level_event_id, derived.kind);
      const data: TrainingAlertRaised = {
        alertId,
        studentId,
        organizationId: s.organization_id,
        skillId: s.skill_id,
        measureCode: s.measure_code,
        levelNumber: s.level,
        kind: derived.kind,
        ruleId: derived.ruleId,
        ruleSetVersion: rules.version,
        levelEventId: s.level_event_id,
        dayEventId: s.days.at(-1)!.event_id,
        evidence: derived.evidence,
        raisedAt: now.toISOString(),
      };
      const wrote = await recordAlertEvent(deps, alertStream(alertId), {
        eventId: alertId,
        type: TRAINING_ALERT_RAISED,
        data,
        metadata: { organizationId: s.organization_id },
      });
      if (wrote) raised++;
    }
    return { raisedAlerts: raised };
  },
});
