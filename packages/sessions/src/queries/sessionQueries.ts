import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { userNamesQuery } from '@qiraa/identity';
import type { Static } from 'typebox';
import {
  type DeliveryMode,
  type HeldOutReason,
  type Medium,
  type OverrideCode,
  type SessionState,
  THEME_LABELS_AR,
  type Theme,
} from '../codes';
import type { SessionSchema, SessionSummarySchema } from '../schemas/sessionSchemas';
import { encodeCursor } from './blueprintQueries';
import { itemCoverage, THIN_COVERAGE } from './itemsForSlots';

export type SessionView = Static<typeof SessionSchema>;

export interface SessionRow {
  id: string;
  organization_id: string;
  school_id: string;
  class_id: string;
  teacher_user_id: string;
  blueprint_id: string;
  blueprint_version: number;
  status: SessionState;
  theme: Theme;
  sub_skill_ids: string[];
  delivery_mode: DeliveryMode | null;
  delivered_by: SessionView['deliveredBy'];
  pins: Record<string, unknown> | null;
  created_at: Date;
  accepted_at: Date | null;
  delivered_at: Date | null;
  cancelled_at: Date | null;
}

export interface SlotRow {
  student_id: string;
  slot_id: string;
  included: boolean;
  held_out_reason: HeldOutReason | null;
  override_code: OverrideCode | null;
  medium: Medium;
  item_ids: string[];
  online_queued_at: Date | null;
  pdf_sha256: string | null;
  link_opened_at: Date | null;
  answered: number | null;
  completed_at: Date | null;
  full_name_ar: string;
  gender: 'female' | 'male' | null;
}

export async function sessionRow(sql: AnySql, id: string, lock = false): Promise<SessionRow> {
  const [row] = lock
    ? await sql<SessionRow[]>`select * from ses_sessions where id = ${id} for update`
    : await sql<SessionRow[]>`select * from ses_sessions where id = ${id}`;
  if (!row) throw notFound('session');
  return row;
}

export const slotsOf = (sql: AnySql, id: string) => sql<SlotRow[]>`
  select s.*, u.full_name_ar, u.gender, p.answered, p.completed_at
  from ses_session_students s join (${userNamesQuery(sql)}) u on u.id = s.student_id
  left join ses_slot_progress p on p.session_id = s.session_id and p.student_id = s.student_id
  where s.session_id = ${id} order by u.full_name_ar, s.student_id`;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The session as its routes answer it: the slots (recipients), the held-out students, advisories of a draft. */
export async function sessionView(sql: AnySql, id: string): Promise<SessionView> {
  const row = await sessionRow(sql, id);
  const [[bp], slots] = await Promise.all([
    sql<{ external_id: string; title_ar: string; target_minutes: number; grade: number }[]>`
      select external_id, title_ar, target_minutes, grade from ses_blueprints where id = ${row.blueprint_id}`,
    slotsOf(sql, id),
  ]);
  const advisories = [];
  if (row.status === 'draft') {
    const coverage = await itemCoverage(sql, row.organization_id, bp!.grade, row.sub_skill_ids);
    const thin = row.sub_skill_ids.filter((s) => (coverage.get(s) ?? 0) < THIN_COVERAGE);
    if (thin.length > 0) {
      advisories.push({ code: 'thin_item_coverage' as const, subSkillIds: thin, minimumItems: THIN_COVERAGE });
    }
  }
  return {
    id: row.id,
    organizationId: row.organization_id,
    schoolId: row.school_id,
    classId: row.class_id,
    teacherUserId: Number(row.teacher_user_id),
    blueprint: {
      id: row.blueprint_id,
      externalId: bp!.external_id,
      version: row.blueprint_version,
      titleAr: bp!.title_ar,
      targetMinutes: bp!.target_minutes,
    },
    status: row.status,
    theme: row.theme,
    themeLabelAr: THEME_LABELS_AR[row.theme],
    subSkillIds: row.sub_skill_ids,
    deliveryMode: row.delivery_mode,
    deliveredBy: row.delivered_by,
    advisories,
    recipients: slots
      .filter((s) => s.included)
      .map((s) => ({
        studentId: Number(s.student_id),
        fullNameAr: s.full_name_ar,
        medium: s.medium,
        overrideCode: s.override_code,
        onlineQueuedAt: iso(s.online_queued_at),
        pdfGenerated: s.pdf_sha256 !== null,
        linkOpenedAt: iso(s.link_opened_at),
        progress: { answered: s.answered ?? 0, total: s.item_ids.length, completedAt: iso(s.completed_at) },
      })),
    notIncluded: slots
      .filter((s) => !s.included)
      .map((s) => ({ studentId: Number(s.student_id), fullNameAr: s.full_name_ar, reason: s.held_out_reason! })),
    createdAt: row.created_at.toISOString(),
    acceptedAt: iso(row.accepted_at),
    deliveredAt: iso(row.delivered_at),
    cancelledAt: iso(row.cancelled_at),
  };
}

/** A class's sessions, newest first, cancelled ones included (spec: remains listed under recently generated). */
/** Newest first, keyset pages: the cursor is the last entry's (createdAt to the millisecond, id). */
export async function recentlyGenerated(
  sql: AnySql,
  classId: string,
  page: { limit: number; after: { at: string; id: string } | null },
): Promise<{ sessions: Static<typeof SessionSummarySchema>[]; nextCursor: string | null }> {
  const rows = await sql<(SessionRow & { title_ar: string; recipient_count: number; not_included_count: number })[]>`
    select s.*, b.title_ar,
      (select count(*)::int from ses_session_students x where x.session_id = s.id and x.included) as recipient_count,
      (select count(*)::int from ses_session_students x where x.session_id = s.id and not x.included) as not_included_count
    from ses_sessions s join ses_blueprints b on b.id = s.blueprint_id
    where s.class_id = ${classId}
      ${page.after ? sql`and (date_trunc('milliseconds', s.created_at), s.id) < (${page.after.at}::timestamptz, ${page.after.id})` : sql``}
    order by date_trunc('milliseconds', s.created_at) desc, s.id desc limit ${page.limit + 1}`;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  const nextCursor = rows.length > page.limit && last ? encodeCursor(last.created_at, last.id) : null;
  const sessions = shown.map((r) => ({
    id: r.id,
    classId: r.class_id,
    status: r.status,
    blueprintId: r.blueprint_id,
    blueprintVersion: r.blueprint_version,
    titleAr: r.title_ar,
    theme: r.theme,
    deliveryMode: r.delivery_mode,
    recipientCount: r.recipient_count,
    notIncludedCount: r.not_included_count,
    createdAt: r.created_at.toISOString(),
  }));
  return { sessions, nextCursor };
}
