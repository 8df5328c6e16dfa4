import { randomUUID } from 'node:crypto';
import { type Decider, handleCommand, withoutRead } from '@qiraa/command-kit';
import type { AnySql, Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { ApiError, compileBodyValidator, type ErrorDetail, unprocessable } from '@qiraa/http-kit';
import {
  classTeachers,
  type Gendered,
  inGender,
  parentsOfStudent,
  type StudentGender,
  studentGender,
  teachersOfStudent,
  userStanding,
} from '@qiraa/identity';
import { LanguageSafetyBlockedError, type LanguageSafetyTier, loadLanguageSafety } from '@qiraa/language-safety';
import { notificationsCommands } from '../commandContext';
import { NOTIFICATION_DISPATCHED, type NotificationDispatched, notificationStream } from '../events';
import {
  isNotificationKind,
  NOTIFICATION_PAYLOADS,
  type NotificationKind,
  type Severity,
  TRAINING_KINDS,
  TRAINING_SOURCE_ENTITY_TYPE,
} from '../schemas/notificationKinds';

/** Pino-shaped: dispatch logs a language-safety abort at error level. */
export interface DispatchLogger {
  error(object: Record<string, unknown>, message: string): void;
}

export interface DispatchDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly logger?: DispatchLogger;
}

export interface SourceEntity {
  sourceEntityType: string;
  sourceEntityId: string;
}

export interface DispatchInput {
  recipientUserId: number;
  kind: string;
  payload: unknown;
  sourceEntity?: SourceEntity;
  /**
   * A producer's own key for this notification (for example the id of the event that raised it). With it the
   * notification id is derived from (kind, recipient, key), so a producer that crashed between dispatch and
   * its own bookkeeping and dispatches again sends nothing twice: the second append is a duplicate.
   */
  dedupeKey?: string;
}

export type DispatchResult =
  | { outcome: 'dispatched'; recipientUserId: number; notificationId: string }
  | { outcome: 'skipped'; recipientUserId: number; skipped: 'recipient_inactive' };

export interface KindTemplates {
  titleTemplate: string;
  bodyTemplate: string;
}

export interface CatalogKind extends KindTemplates {
  kind: NotificationKind;
  /** The three forms; `neutral` (= titleTemplate, bodyTemplate) serves an unknown gender and kinds naming no child. */
  forms: Gendered<KindTemplates>;
  defaultSeverity: Severity;
  defaultPersona: 'TEACHER' | 'PARENT' | 'ADMIN' | 'PRINCIPAL' | 'MANAGER';
  retentionDays: number;
  templateVersion: number;
}

/** Step 1: the active catalog row of the kind (and a payload schema in code); anything else is 422 unknown_kind. */
export async function lookupKind(sql: AnySql, kind: string): Promise<CatalogKind> {
  const [row] = await sql<
    {
      arabic_title_template: string;
      arabic_body_template: string;
      arabic_title_template_male: string | null;
      arabic_title_template_female: string | null;
      arabic_body_template_male: string | null;
      arabic_body_template_female: string | null;
      default_severity: Severity;
      default_persona: CatalogKind['defaultPersona'];
      retention_days: number;
      template_version: number;
    }[]
  >`
    select arabic_title_template, arabic_body_template, arabic_title_template_male, arabic_title_template_female,
           arabic_body_template_male, arabic_body_template_female, default_severity, default_persona,
           retention_days, template_version
    from notification_kinds where kind = ${kind} and active`;
  if (!row || !isNotificationKind(kind)) {
    throw unprocessable('unknown_kind', `notification kind "${kind}" is unknown or inactive`, [
      { field: 'kind', issue: 'unknown or inactive notification kind' },
    ]);
  }
  const neutral = { titleTemplate: row.arabic_title_template, bodyTemplate: row.arabic_body_template };
  return {
    kind,
    ...neutral,
    forms: {
      neutral,
      male: {
        titleTemplate: row.arabic_title_template_male ?? neutral.titleTemplate,
        bodyTemplate: row.arabic_body_template_male ?? neutral.bodyTemplate,
      },
      female: {
        titleTemplate: row.arabic_title_template_female ?? neutral.titleTemplate,
        bodyTemplate: row.arabic_body_template_female ?? neutral.bodyTemplate,
      },
    },
    defaultSeverity: row.default_severity,
    defaultPersona: row.default_persona,
    retentionDays: row.retention_days,
    templateVersion: row.template_version,
  };
}

const validators = new Map<NotificationKind, ReturnType<typeof compileBodyValidator>>();

/**
 * Step 2: the payload against the kind's schema (closed objects: an undeclared key is refused), and for the
 * training kinds the source entity (`training_progress_alert`, the alert id; derived when absent).
 * Failure is 422 VALIDATION_ERROR reason `invalid_payload` with details; nothing is written.
 */
export function validatePayload(
  kind: NotificationKind,
  payload: unknown,
  sourceEntity: SourceEntity | undefined,
): { payload: Record<string, unknown>; sourceEntity: SourceEntity | null } {
  let validate = validators.get(kind);
  if (!validate) {
    validate = compileBodyValidator(NOTIFICATION_PAYLOADS[kind]);
    validators.set(kind, validate);
  }
  const checked = validate(payload);
  if (!checked.ok) {
    const details: ErrorDetail[] = checked.details.map((d) => ({
      ...d,
      field: `payload${d.field ? `.${d.field}` : ''}`,
    }));
    throw unprocessable('invalid_payload', `payload does not match the ${kind} schema`, details);
  }
  const valid = payload as Record<string, unknown>;
  if ((TRAINING_KINDS as readonly string[]).includes(kind)) {
    const expected = { sourceEntityType: TRAINING_SOURCE_ENTITY_TYPE, sourceEntityId: String(valid['alertId']) };
    if (
      sourceEntity &&
      (sourceEntity.sourceEntityType !== expected.sourceEntityType ||
        sourceEntity.sourceEntityId !== expected.sourceEntityId)
    ) {
      throw unprocessable('invalid_payload', 'training kinds are raised by their training_progress_alert', [
        { field: 'sourceEntity', issue: 'must be training_progress_alert with the payload’s alertId' },
      ]);
    }
    return { payload: valid, sourceEntity: expected };
  }
  return { payload: valid, sourceEntity: sourceEntity ?? null };
}

/** Step 3: `{{var}}` replaced by the payload value. Deterministic; a token without a value is a catalog bug. */
export function renderTemplate(template: string, payload: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g, (_, name: string) => {
    const value = payload[name];
    if (value === undefined || value === null || typeof value === 'object') {
      throw new Error(`notification template token {{${name}}} has no payload value`);
    }
    return String(value);
  });
}

/**
 * The gender of the child the payload names (`studentId`), so the text agrees with them; null (the neutral
 * form) when the kind names no child, the id is not a student, or the gender is not recorded.
 */
export async function childGenderOf(sql: AnySql, payload: Record<string, unknown>): Promise<StudentGender | null> {
  const studentId = payload['studentId'];
  return typeof studentId === 'string' ? studentGender(sql, Number(studentId)) : null;
}

/** Step 3 for one kind: the form that agrees with the child, rendered. */
export function renderKind(
  catalog: Pick<CatalogKind, 'forms'>,
  payload: Record<string, unknown>,
  gender: StudentGender | null,
): { titleAr: string; bodyAr: string } {
  const form = inGender(catalog.forms, gender);
  return { titleAr: renderTemplate(form.titleTemplate, payload), bodyAr: renderTemplate(form.bodyTemplate, payload) };
}

export type ResolvedRecipient =
  | { status: 'active'; userId: number; organizationId: string | null; persona: string }
  | { status: 'inactive' };

/**
 * Step 4: the recipient's organization and persona. Missing, disabled, or of a disabled organization →
 * inactive (dispatch skips, no row). A student is refused: 422 reason `student_recipient`.
 */
export async function resolveRecipient(sql: AnySql, recipientUserId: number): Promise<ResolvedRecipient> {
  const user = await userStanding(sql, recipientUserId);
  if (!user) return { status: 'inactive' };
  if (user.persona === 'STUDENT') {
    throw unprocessable('student_recipient', 'students never receive notifications', [
      { field: 'recipientUserId', issue: 'a student cannot be a notification recipient' },
    ]);
  }
  if (user.disabled || user.organizationDisabled) return { status: 'inactive' };
  return {
    status: 'active',
    userId: recipientUserId,
    organizationId: user.organizationId,
    persona: user.persona,
  };
}

/**
 * Step 5: both strings through the language-safety filter; the parent tier when the kind's default persona or
 * the recipient is a parent. Any rewrite aborts (no fallback, no row): an error-level log line and
 * `LanguageSafetyBlockedError`. An unavailable rule set raises `LanguageSafetyUnavailableError`.
 */
export async function filterRendered(
  deps: DispatchDeps,
  input: { kind: string; recipientUserId: number; defaultPersona: string; recipientPersona: string },
  rendered: { titleAr: string; bodyAr: string },
): Promise<LanguageSafetyTier> {
  const tier: LanguageSafetyTier =
    input.defaultPersona === 'PARENT' || input.recipientPersona === 'PARENT' ? 'parent' : 'general';
  const filter = await loadLanguageSafety(deps.sql);
  for (const [field, text] of [
    ['renderedTitleAr', rendered.titleAr],
    ['renderedBodyAr', rendered.bodyAr],
  ] as const) {
    const result = filter.check(text, tier);
    if (result.kind === 'rewrite') {
      const error = new LanguageSafetyBlockedError(tier, result.fired, result.rewritten);
      deps.logger?.error(
        {
          event: 'notification_language_safety_abort',
          kind: input.kind,
          recipientUserId: input.recipientUserId,
          field,
          tier,
          ruleSetVersion: filter.version,
          rules: result.fired.map((f) => f.ruleId),
        },
        'notification dispatch aborted: rendered text does not pass the language-safety filter',
      );
      throw error;
    }
  }
  return tier;
}

/**
 * Step 6's rule: the dispatch the five steps before decided, once per notification (a deterministic id: a
 * deduplicated re-dispatch is a duplicate and writes nothing). The inbox is not read: the id decides.
 */
export const dispatchedDecider: Decider<NotificationDispatched, NewEvent<NotificationDispatched>, null> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: (data) => [
    {
      eventId: deterministicEventId('notification', data.notificationId),
      type: NOTIFICATION_DISPATCHED,
      data,
      metadata: { organizationId: data.organizationId },
    },
  ],
};

/**
 * Step 6: `NotificationDispatched` on the recipient's stream and the inbox row, in one transaction. An id
 * already on the stream (a deduplicated re-dispatch) writes nothing.
 */
export async function appendDispatched(deps: DispatchDeps, data: NotificationDispatched): Promise<void> {
  await handleCommand(deps, {
    context: notificationsCommands,
    streamId: notificationStream(data.recipientUserId),
    decider: dispatchedDecider,
    command: data,
    load: withoutRead(null),
    onDuplicate: 'done',
  });
}

/**
 * The write path of notifications (spec: Notifications endpoints, dispatch steps), the six steps in order;
 * step 3 renders the form of the templates that agrees with the payload's child (`studentId`).
 * Throws ApiError 422 (`unknown_kind`, `invalid_payload`, `student_recipient`), `LanguageSafetyBlockedError`
 * or `LanguageSafetyUnavailableError`; an inactive recipient is `{ outcome: 'skipped' }`. Nothing is written
 * unless every step passed.
 */
export async function dispatch(deps: DispatchDeps, input: DispatchInput): Promise<DispatchResult> {
  const catalog = await lookupKind(deps.sql, input.kind);
  const { payload, sourceEntity } = validatePayload(catalog.kind, input.payload, input.sourceEntity);
  const rendered = renderKind(catalog, payload, await childGenderOf(deps.sql, payload));
  const recipient = await resolveRecipient(deps.sql, input.recipientUserId);
  if (recipient.status === 'inactive') {
    return { outcome: 'skipped', recipientUserId: input.recipientUserId, skipped: 'recipient_inactive' };
  }
  await filterRendered(
    deps,
    {
      kind: catalog.kind,
      recipientUserId: recipient.userId,
      defaultPersona: catalog.defaultPersona,
      recipientPersona: recipient.persona,
    },
    rendered,
  );
  const notificationId =
    input.dedupeKey === undefined
      ? randomUUID()
      : deterministicEventId('notification-dedupe', catalog.kind, recipient.userId, input.dedupeKey);
  await appendDispatched(deps, {
    notificationId,
    recipientUserId: recipient.userId,
    kind: catalog.kind,
    templateVersion: catalog.templateVersion,
    payload,
    organizationId: recipient.organizationId,
    renderedTitleAr: rendered.titleAr,
    renderedBodyAr: rendered.bodyAr,
    severity: catalog.defaultSeverity,
    sourceEntityType: sourceEntity?.sourceEntityType ?? null,
    sourceEntityId: sourceEntity?.sourceEntityId ?? null,
  });
  return { outcome: 'dispatched', recipientUserId: recipient.userId, notificationId };
}

export type FanOutResult = { outcome: 'no_recipients' } | { outcome: 'fanned_out'; results: DispatchResult[] };

async function fanOut(deps: DispatchDeps, recipients: number[], input: Omit<DispatchInput, 'recipientUserId'>) {
  if (recipients.length === 0) return { outcome: 'no_recipients' } as const;
  const results: DispatchResult[] = [];
  for (const recipientUserId of recipients) results.push(await dispatch(deps, { ...input, recipientUserId }));
  return { outcome: 'fanned_out', results } as const;
}

/** Every ClassTeacher of the class (all co-teachers), one notification each. */
export async function dispatchToClass(
  deps: DispatchDeps,
  classId: string,
  input: Omit<DispatchInput, 'recipientUserId'>,
): Promise<FanOutResult> {
  await lookupKind(deps.sql, input.kind);
  return fanOut(deps, await classTeachers(deps.sql, classId), input);
}

/**
 * The adults the kind targets for a child: TEACHER kinds → every teacher of the child's active classes,
 * PARENT kinds → every linked parent. A kind for another persona is 422 reason `kind_not_for_student_adults`.
 */
export async function dispatchToStudent(
  deps: DispatchDeps,
  studentId: number,
  input: Omit<DispatchInput, 'recipientUserId'>,
): Promise<FanOutResult> {
  const catalog = await lookupKind(deps.sql, input.kind);
  let recipients: number[];
  if (catalog.defaultPersona === 'TEACHER') {
    recipients = await teachersOfStudent(deps.sql, studentId);
  } else if (catalog.defaultPersona === 'PARENT') {
    recipients = await parentsOfStudent(deps.sql, studentId);
  } else {
    throw new ApiError(422, 'VALIDATION_ERROR', `kind ${catalog.kind} is not addressed to a child’s adults`, {
      reason: 'kind_not_for_student_adults',
    });
  }
  return fanOut(deps, recipients, input);
}
