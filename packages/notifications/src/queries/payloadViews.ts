import { NOTIFICATION_KINDS, type NotificationKind, type NotificationPayload } from '../schemas/notificationKinds';

/** The personas a notification can reach (students never receive one). */
export const RECIPIENT_PERSONAS = ['TEACHER', 'ADMIN', 'PRINCIPAL', 'MANAGER', 'PARENT'] as const;
export type RecipientPersona = (typeof RECIPIENT_PERSONAS)[number];

type KeysOf<K extends NotificationKind> = readonly (keyof NotificationPayload<K> & string)[];
type PayloadViews = { readonly [K in NotificationKind]: Readonly<Record<RecipientPersona, KeysOf<K>>> };

/**
 * Staff act on a notification (open the alert, the plan, the class), so they get the ids and codes; a parent
 * gets the names the rendered text already shows and nothing else (spec: no score, SkillStatus token, profile
 * code, internal id or benchmark number in any parent response).
 */
const views = <K extends NotificationKind>(staff: KeysOf<K>, parent: KeysOf<K>) =>
  ({ TEACHER: staff, ADMIN: staff, PRINCIPAL: staff, MANAGER: staff, PARENT: parent }) as const;

const CHILD = ['studentId', 'classId', 'studentName'] as const;
const TRAINING = [...CHILD, 'alertId', 'skillId', 'skillLabelAr', 'levelNumber', 'levelNameAr'] as const;

/**
 * Per kind and recipient persona, the payload keys an inbox row carries (an allow-list: a key added to a
 * payload schema reaches nobody until it is listed here). Applied on every read, so stored rows follow it too.
 */
export const NOTIFICATION_PAYLOAD_VIEWS: PayloadViews = {
  q5_24h_ack: views([...CHILD, 'alertId'], ['studentName']),
  skill_alert_assigned: views([...CHILD, 'alertId', 'skillId', 'skillLabelAr'], ['studentName', 'skillLabelAr']),
  student_alert_assigned: views([...CHILD, 'alertId'], ['studentName']),
  benchmark_profile_swap: views([...CHILD, 'fromProfileCode', 'toProfileCode'], ['studentName']),
  dismissal_expiry: views([...CHILD, 'alertId'], ['studentName']),
  plan_modification_suggestion: views([...CHILD, 'planId', 'skillId', 'skillLabelAr'], ['studentName', 'skillLabelAr']),
  cbm_alert_lifecycle: views([...CHILD, 'alertId', 'lifecycle'], ['studentName']),
  parent_tsp_activation: views(['studentId', 'studentName', 'planId'], ['studentName']),
  lms_connection_revoked: views(['connectionId', 'provider'], []),
  training_no_progress: views(TRAINING, ['studentName', 'skillLabelAr']),
  training_support_review_suggested: views([...TRAINING, 'daysAtLevel'], ['studentName', 'skillLabelAr']),
};

/**
 * The envelope fields of an inbox row each persona gets. A parent's row keeps only what the inbox needs: the
 * row's own `id` (the read and dismiss routes take it), the contract enums `kind`, `severity` and
 * `deliveryState`, and its timestamps; `recipientUserId`, `organizationId` and `sourceEntity` (internal ids)
 * are left out.
 */
export const PARENT_HIDDEN_ENVELOPE = ['recipientUserId', 'organizationId', 'sourceEntity'] as const;

const isRecipientPersona = (persona: string): persona is RecipientPersona =>
  (RECIPIENT_PERSONAS as readonly string[]).includes(persona);

/**
 * The payload as the recipient may see it. An unknown persona, or a kind no longer in code, gets nothing
 * (closed by default).
 */
export function payloadView(
  kind: string,
  persona: string,
  payload: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (!isRecipientPersona(persona) || !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) return {};
  const keys: readonly string[] = NOTIFICATION_PAYLOAD_VIEWS[kind as NotificationKind][persona];
  const shown: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(payload, key)) shown[key] = payload[key];
  return shown;
}
