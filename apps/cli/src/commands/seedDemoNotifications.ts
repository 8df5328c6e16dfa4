import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { dispatch, type NotificationKind, SAMPLE_PAYLOADS } from '@qiraa/notifications';

/** Which kinds each demo adult finds in their inbox. */
const KINDS_BY_PERSONA: Record<string, readonly NotificationKind[]> = {
  TEACHER: ['student_alert_assigned', 'skill_alert_assigned', 'training_no_progress', 'plan_modification_suggestion'],
  PARENT: ['parent_tsp_activation'],
  ADMIN: ['benchmark_profile_swap', 'lms_connection_revoked'],
  PRINCIPAL: ['benchmark_profile_swap'],
  MANAGER: ['benchmark_profile_swap'],
};

/**
 * A few notifications in the inbox of each demo adult, raised through the real dispatch (catalog, payload
 * schema, render, recipient, language-safety filter, insert) and about a real demo child.
 */
export async function seedDemoNotifications(
  deps: { sql: Sql; store: EventStore },
  adults: readonly { id: number; persona: string }[],
  child: { studentId: number; classId: string; studentName: string },
): Promise<number> {
  let delivered = 0;
  for (const adult of adults) {
    for (const kind of KINDS_BY_PERSONA[adult.persona] ?? []) {
      const sample = SAMPLE_PAYLOADS[kind] as Record<string, unknown>;
      // Point the sample at a real demo child, only through the keys this kind's payload has.
      const real: Record<string, unknown> = {
        studentId: String(child.studentId),
        classId: child.classId,
        studentName: child.studentName,
      };
      const payload = Object.fromEntries(
        Object.entries(sample).map(([key, value]) => [key, key in real ? real[key] : value]),
      );
      const result = await dispatch(deps, { recipientUserId: adult.id, kind, payload });
      if (result.outcome === 'dispatched') delivered++;
    }
  }
  return delivered;
}
