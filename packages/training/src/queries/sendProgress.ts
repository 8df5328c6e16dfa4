import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import {
  type Caller,
  classSchoolsQuery,
  holds,
  inOrganizationOr404,
  isSuperAdmin,
  teachesClass,
  userNamesQuery,
} from '@qiraa/identity';
import { notClassTeacher } from './groupScope';

interface SendRow {
  send_id: string;
  organization_id: string;
  teacher_user_id: string;
  sent_by_user_id: string;
  class_id: string | null;
  group_id: string | null;
  skill_id: string | null;
  student_ids: string[];
  until_at: Date;
  created_at: Date;
  school_id: string | null;
  owner_user_id: string | null;
}

/**
 * Who reads a send: whoever could have made it (docs/training-alerts.md, "Reading a send"). Another
 * organization's or an unknown send 404; a teacher who teaches the class or owns the group (else 403
 * NOT_CLASS_TEACHER); admin, manager, the super-admin; a principal of the class's school (a group send is no
 * principal's); anyone else 403.
 */
async function readableSend(sql: AnySql, caller: Caller, sendId: string): Promise<SendRow> {
  const [row] = await sql<SendRow[]>`
    select s.*, c.school_id, g.owner_user_id
    from trn_sends s
    left join (${classSchoolsQuery(sql)}) c on c.class_id = s.class_id
    left join trn_support_groups g on g.id = s.group_id
    where s.send_id = ${sendId}`;
  inOrganizationOr404(caller, row?.organization_id, 'send');
  const send = row!;
  if (caller.persona === 'TEACHER') {
    const reaches =
      send.class_id !== null
        ? await teachesClass(sql, send.class_id, caller.userId)
        : Number(send.owner_user_id) === caller.userId;
    if (!reaches) throw notClassTeacher('the send’s class or group is not the caller’s');
    return send;
  }
  if (isSuperAdmin(caller) || holds(caller, 'MANAGE_ORG', 'VIEW_ORGANIZATION')) return send;
  if (holds(caller, 'VIEW_SCHOOL') && send.school_id !== null && send.school_id === caller.schoolId) return send;
  throw permissionDenied('a send is read by its teachers and the staff who could send it');
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * A send's delivery and progress: per recipient the answers given in the window (from the send to `until`) to
 * the sent skill (any skill for a send without one), from the training answers the queue recorded.
 */
export async function sendProgressOf(sql: AnySql, caller: Caller, sendId: string, now: Date) {
  const send = await readableSend(sql, caller, sendId);
  const rows = await sql<
    {
      student_id: string;
      full_name_ar: string;
      answered: number;
      correct: number;
      first: Date | null;
      last: Date | null;
    }[]
  >`
    select r.id::text as student_id, u.full_name_ar,
           count(a.answer_id)::int as answered, count(a.answer_id) filter (where a.correct)::int as correct,
           min(a.answered_at) as first, max(a.answered_at) as last
    from trn_sends s cross join lateral unnest(s.student_ids) as r(id)
    join (${userNamesQuery(sql)}) u on u.id = r.id
    left join trn_answers a on a.student_id = r.id
      and a.answered_at >= ${send.created_at} and a.answered_at < ${send.until_at}
      and (${send.skill_id}::text is null or a.skill_id = ${send.skill_id}::text)
    where s.send_id = ${sendId}
    group by r.id, u.full_name_ar
    order by r.id`;
  const recipients = rows.map((r) => ({
    studentId: Number(r.student_id),
    fullNameAr: r.full_name_ar,
    reached: r.answered > 0,
    answered: r.answered,
    correct: r.correct,
    firstAnsweredAt: iso(r.first),
    lastAnsweredAt: iso(r.last),
  }));
  return {
    send: {
      sendId: send.send_id,
      teacherUserId: Number(send.teacher_user_id),
      sentByUserId: Number(send.sent_by_user_id),
      classId: send.class_id,
      groupId: send.group_id,
      skillId: send.skill_id,
      studentIds: send.student_ids.map(Number),
      until: send.until_at.toISOString(),
      createdAt: send.created_at.toISOString(),
    },
    state: send.until_at > now ? ('open' as const) : ('over' as const),
    summary: {
      recipients: recipients.length,
      reached: recipients.filter((r) => r.reached).length,
      answered: recipients.reduce((n, r) => n + r.answered, 0),
    },
    recipients,
  };
}
