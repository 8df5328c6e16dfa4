import { createHash, randomUUID } from 'node:crypto';
import { type Decider, handleCommand } from '@qiraa/command-kit';
import { hasTrainingContent, skillExists } from '@qiraa/content';
import type { TransactionSql } from '@qiraa/db';
import type { NewEvent } from '@qiraa/eventstore';
import { ApiError, conflict, rateLimited, unprocessable, validationFailed } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { trainingCommands } from '../commandContext';
import { academicYearOf } from '../engine/schoolDay';
import { trainingEvents } from '../events';
import { sendStream, TRAINING_SENT, type TrainingSent } from '../events/sendEvents';
import { type SendScope, sendScopeOf } from '../queries/sendScope';
import { sendWindowOf } from '../queries/sendWindow';

/** Sends per caller and window (like session creation, spec Limits); the next one answers 429 RATE_LIMITED. */
export const SENDS_PER_WINDOW = 30;
export const SEND_WINDOW_SECONDS = 15 * 60;

export interface SendBodyInput {
  classId?: string;
  groupId?: string;
  skillId?: string;
  untilDate: string;
  untilTime?: string;
  onBehalfOfTeacherUserId?: number;
}

export interface SendView {
  sendId: string;
  teacherUserId: number;
  sentByUserId: number;
  classId: string | null;
  groupId: string | null;
  skillId: string | null;
  studentIds: number[];
  until: string;
  createdAt: string;
}

/** The body's fingerprint: its fields in a fixed order, so key order or whitespace never makes two bodies differ. */
export function bodyHashOf(body: SendBodyInput): string {
  const canonical = JSON.stringify(
    Object.keys(body)
      .sort()
      .map((k) => [k, body[k as keyof SendBodyInput]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** 503 when the content bank holds no operational training item the send could serve (spec: TRAINING_UNAVAILABLE). */
async function checkAvailable(
  tx: TransactionSql,
  organizationId: string,
  grade: number | null,
  skillId: string | null,
) {
  if (!(await hasTrainingContent(tx, organizationId, grade, skillId)))
    throw new ApiError(503, 'TRAINING_UNAVAILABLE', 'training cannot be sent: no training content to serve');
}

/** What a send decides on, read under the caller's lock: an answer kept under the key, or the send's scope. */
export type SendState =
  | { readonly kind: 'unread' }
  | { readonly kind: 'replay'; readonly status: number; readonly view: SendView }
  | { readonly kind: 'send'; readonly scope: SendScope; readonly untilAt: Date }
  | { readonly kind: 'sent'; readonly sent: TrainingSent };

export interface SendTraining {
  readonly caller: Caller;
  readonly body: SendBodyInput;
  readonly sendId: string;
  readonly now: Date;
}

/**
 * The send's event: `TrainingSent` for the scope the loader read (its refusals, reads in between, are the
 * loader's: each is checked in the order the API promises); nothing for a key answered already (replayed).
 */
export const sendTrainingDecider: Decider<SendTraining, NewEvent<TrainingSent>, SendState> = {
  initialState: () => ({ kind: 'unread' }),
  evolve: (state, recorded) => {
    const [event] = trainingEvents([recorded]);
    return event?.type === TRAINING_SENT ? { kind: 'sent', sent: event.data } : state;
  },
  decide({ caller, body, sendId, now }, state) {
    if (state.kind === 'unread') throw new Error(`send ${sendId}: decided without loading`);
    if (state.kind === 'replay' || state.kind === 'sent') return [];
    const { scope, untilAt } = state;
    const data: TrainingSent = {
      sendId,
      organizationId: scope.organizationId,
      teacherUserId: scope.teacherUserId,
      sentByUserId: caller.userId,
      classId: scope.classId,
      groupId: scope.groupId,
      skillId: body.skillId ?? null,
      studentIds: scope.studentIds,
      untilAt: untilAt.toISOString(),
      sentAt: now.toISOString(),
    };
    return [
      {
        eventId: sendId,
        type: TRAINING_SENT,
        data,
        metadata: { organizationId: scope.organizationId, actorUserId: caller.userId },
      },
    ];
  },
};

/**
 * The send's reads and refusals, under a transaction advisory lock on the caller: the key (same body: its
 * answer again; another body: 422), the rate window (429), exactly one of class or group, the skill, the scope,
 * the window, the academic year, a child to send to, content to serve (503).
 */
async function loadSend(
  tx: TransactionSql,
  caller: Caller,
  idempotencyKey: string,
  body: SendBodyInput,
  bodyHash: string,
  now: Date,
): Promise<SendState> {
  await tx`select pg_advisory_xact_lock(hashtext(${`trn_send:${caller.userId}`}))`;
  const [used] = await tx<{ body_hash: string; status: number; response: SendView }[]>`
    select body_hash, status, response from trn_send_requests
    where caller_user_id = ${caller.userId} and idempotency_key = ${idempotencyKey}`;
  if (used) {
    if (used.body_hash !== bodyHash) {
      throw unprocessable('idempotency_key_reused', 'this X-Idempotency-Key was used with another body');
    }
    return { kind: 'replay', status: used.status, view: used.response };
  }
  const [window] = await tx<{ n: number; oldest: Date | null }[]>`
    select count(*)::int as n, min(created_at) as oldest from trn_send_requests
    where caller_user_id = ${caller.userId} and created_at > ${now}::timestamptz - make_interval(secs => ${SEND_WINDOW_SECONDS})`;
  if (window!.n >= SENDS_PER_WINDOW) {
    const retryAfter = Math.max(
      1,
      Math.ceil((window!.oldest!.getTime() + SEND_WINDOW_SECONDS * 1000 - now.getTime()) / 1000),
    );
    throw rateLimited(retryAfter);
  }
  if ((body.classId === undefined) === (body.groupId === undefined)) {
    throw validationFailed([
      { field: body.classId === undefined ? 'classId' : 'groupId', issue: 'exactly one of classId or groupId' },
    ]);
  }
  if (body.skillId !== undefined) {
    if (!(await skillExists(tx, body.skillId)))
      throw validationFailed([{ field: 'skillId', issue: 'not a skill of the catalog' }]);
  }
  const scope = await sendScopeOf(tx, caller, body);
  const { untilAt, today } = await sendWindowOf(tx, scope.organizationId, body, now);
  if (scope.academicYear !== null && scope.academicYear < academicYearOf(today)) {
    throw conflict('send_closed', 'the class’s academic year is over');
  }
  if (scope.studentIds.length === 0) throw conflict('empty_target', 'the class or group has no active child');
  await checkAvailable(tx, scope.organizationId, scope.grade, body.skillId ?? null);
  return { kind: 'send', scope, untilAt };
}

/**
 * POST /api/training/sends (docs/training-alerts.md, Teacher sends). Serialized per caller (a transaction advisory
 * lock), so the idempotency key and the rate window are exact under parallel requests: a key already used with the
 * same body answers its first success again and changes nothing; with another body 422 `idempotency_key_reused`.
 * A refusal writes nothing and keeps no answer (the same request may succeed later). A success appends
 * `TrainingSent`, projects `trn_sends` and keeps the answer under the key, in one transaction (the answer is the
 * command's `followUp`).
 */
export async function sendTraining(
  deps: Pick<ContextDeps, 'sql' | 'store'>,
  caller: Caller,
  idempotencyKey: string,
  body: SendBodyInput,
  /** The request's `deps.clock` reading: the rate window, the send window's checks and `sentAt`. */
  now: Date,
): Promise<{ status: number; view: SendView; replayed: boolean }> {
  const bodyHash = bodyHashOf(body);
  const sendId = randomUUID();
  const viewOf = (sent: TrainingSent): SendView => ({
    sendId,
    teacherUserId: sent.teacherUserId,
    sentByUserId: caller.userId,
    classId: sent.classId,
    groupId: sent.groupId,
    skillId: sent.skillId,
    studentIds: sent.studentIds,
    until: sent.untilAt,
    createdAt: sent.sentAt,
  });
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId: sendStream(sendId),
    decider: sendTrainingDecider,
    command: { caller, body, sendId, now },
    load: {
      name: 'the key, the rate window and the send’s scope, under the caller’s lock',
      inTransaction: true,
      async load(uow) {
        const state = await loadSend(uow.sql, caller, idempotencyKey, body, bodyHash, now);
        return { state, version: 'no_stream' };
      },
    },
    // The answer is kept under the key in the send's transaction: a retried request finds it, or nothing.
    followUp: (state) =>
      state.kind !== 'sent'
        ? null
        : async (uow) => {
            const view = viewOf(state.sent);
            await uow.sql`
        insert into trn_send_requests (caller_user_id, idempotency_key, body_hash, status, response, created_at)
        values (${caller.userId}, ${idempotencyKey}, ${bodyHash}, 201, ${uow.sql.json(view as never)}, ${now})`;
          },
  });
  const { state } = result;
  if (state.kind === 'replay') return { status: state.status, view: state.view, replayed: true };
  if (state.kind !== 'sent') throw new Error(`send ${sendId}: ${result.kind}, not sent`);
  return { status: 201, view: viewOf(state.sent), replayed: false };
}
