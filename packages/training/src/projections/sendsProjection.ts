import type { OfType } from '@qiraa/eventstore';
import { defineProjection, eventsOfType } from '@qiraa/projections';
import type { TrainingEvent } from '../events';
import { TRAINING_SENT } from '../events/sendEvents';

/** `trn_sends`: one row per send (write-once; `on conflict do nothing` makes a second application harmless). */
export const sendsProjection = defineProjection<OfType<TrainingEvent, typeof TRAINING_SENT>>({
  name: 'training_sends',
  version: 1,
  handles: [TRAINING_SENT],
  tables: ['trn_sends'],
  async applyBatch({ sql, table }, events) {
    const rows = eventsOfType(events, TRAINING_SENT).map((e) => ({
      send_id: e.data.sendId,
      organization_id: e.data.organizationId,
      teacher_user_id: e.data.teacherUserId,
      sent_by_user_id: e.data.sentByUserId,
      class_id: e.data.classId,
      group_id: e.data.groupId,
      skill_id: e.data.skillId,
      student_ids: e.data.studentIds,
      until_at: e.data.untilAt,
      created_at: e.data.sentAt,
    }));
    if (rows.length === 0) return;
    await sql`
      insert into ${sql(table('trn_sends'))} (send_id, organization_id, teacher_user_id, sent_by_user_id, class_id,
        group_id, skill_id, student_ids, until_at, created_at)
      select r.send_id, r.organization_id, r.teacher_user_id, r.sent_by_user_id, r.class_id, r.group_id, r.skill_id,
             array(select jsonb_array_elements_text(r.student_ids))::bigint[], r.until_at, r.created_at
      from jsonb_to_recordset(${sql.json(rows as never)}) as r(send_id uuid, organization_id text, teacher_user_id bigint,
        sent_by_user_id bigint, class_id text, group_id uuid, skill_id text, student_ids jsonb, until_at timestamptz,
        created_at timestamptz)
      on conflict (send_id) do nothing`;
  },
});
