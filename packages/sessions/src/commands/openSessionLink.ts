import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { notFound, permissionDenied } from '@qiraa/http-kit';
import { type Caller, inOrganizationOr404 } from '@qiraa/identity';
import { loadLanguageSafety, servedRewrite } from '@qiraa/language-safety';
import { THEME_LABELS_AR, type Theme } from '../codes';
import { logTransition } from './sessionLog';

interface LinkRow {
  session_id: string;
  student_id: string;
  organization_id: string;
  status: string;
  theme: Theme;
  item_ids: string[];
  online_queued_at: Date | null;
  link_opened_at: Date | null;
  title_ar: string;
  intro_ar: string;
  target_minutes: number;
}

/**
 * The printed sheet's QR link (`/s/<slotId>`) opened by its child: the session (student-facing fields only)
 * and, the first time, the slot queued in the child's practice queue (a printed slot becomes practicable
 * online too) with `link_opened_at`. Only the slot's child opens it: another child gets 404 (a link is no
 * proof of anything), an adult of the organization 403, another organization or an unknown slot 404.
 * A cancelled session's link (never printed: only drafts cancel) and a held-out slot are 404.
 * The texts the child reads (title, instruction, theme) pass the language-safety rule set in force, as every text
 * served to a student does (docs/language-safety.md, "Served text"): a refused one is served as the filter's rewrite.
 */
export async function openSessionLink(deps: { sql: Sql }, caller: Caller, slotId: string, now: Date) {
  return inTransaction(deps.sql, async ({ sql: tx }) => {
    const [row] = await tx<LinkRow[]>`
      select s.session_id, s.student_id, x.organization_id, x.status, x.theme, s.item_ids, s.online_queued_at,
             s.link_opened_at, b.title_ar, b.intro_ar, b.target_minutes
      from ses_session_students s
      join ses_sessions x on x.id = s.session_id
      join ses_blueprints b on b.id = x.blueprint_id
      where s.slot_id = ${slotId} and s.included
      for update of s`;
    inOrganizationOr404(caller, row?.organization_id, 'session link');
    if (caller.persona !== 'STUDENT') throw permissionDenied('only the child opens their sheet’s link');
    if (!row || Number(row.student_id) !== caller.userId) throw notFound('session link');
    if (row.status !== 'previewed' && row.status !== 'delivered') throw notFound('session link');
    // Loaded before the first write: an unavailable rule set is 503 and nothing is served unfiltered.
    const filter = await loadLanguageSafety(deps.sql);
    const first = row.link_opened_at === null;
    if (first) {
      await tx`
        update ses_session_students
        set link_opened_at = ${now}, online_queued_at = coalesce(online_queued_at, ${now})
        where slot_id = ${slotId}`;
      await logTransition(tx, row.session_id, 'link_opened', caller.userId, {
        studentId: caller.userId,
        queued: row.online_queued_at === null,
      });
    }
    const [progress] = await tx<{ answered: number; completed_at: Date | null }[]>`
      select answered, completed_at from ses_slot_progress
      where session_id = ${row.session_id} and student_id = ${caller.userId}`;
    return {
      sessionId: row.session_id,
      slotId,
      titleAr: servedRewrite(filter, row.title_ar),
      introAr: servedRewrite(filter, row.intro_ar),
      themeLabelAr: servedRewrite(filter, THEME_LABELS_AR[row.theme]),
      targetMinutes: row.target_minutes,
      queued: true,
      progress: {
        answered: progress?.answered ?? 0,
        total: row.item_ids.length,
        completedAt: progress?.completed_at?.toISOString() ?? null,
      },
      practice: '/api/practice/queues/current/next-item',
    };
  });
}
