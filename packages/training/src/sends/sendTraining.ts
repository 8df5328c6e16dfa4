import { createHash, randomUUID } from 'node:crypto';
import { skillExists } from '@qiraa/content';
import { inTransaction, type TransactionSql } from '@qiraa/db';
import { ApiError, conflict, rateLimited, unprocessable, validationFailed } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { applyInline } from '@qiraa/projections';
import { academicYearOf } from '../engine/schoolDay';
import { sendStream, TRAINING_SENT, type TrainingSent } from './sendEvents';
import { sendScopeOf } from './sendScope';
import { sendsProjection } from './sendsProjection';
import { sendWindowOf } from './sendWindow';

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
  const [row] = await tx`
    select 1 from content_items i join content_sub_skills s on s.id = i.sub_skill_id
    where i.content_role = 'target_training' and i.status = 'operational'
      and (i.organization_id is null or i.organization_id = ${organizationId})
      and (${grade}::int is null or i.grade = ${grade}::int)
      and (${skillId}::text is null or s.skill_id = ${skillId}::text)
    limit 1`;
  if (!row) throw new ApiError(503, 'TRAINING_UNAVAILABLE', 'training cannot be sent: no training content to serve');
}

/**
 * POST /api/training/sends (docs/training-alerts.md, Teacher sends). Serialized per caller (a transaction advisory
 * lock), so the idempotency key and the rate window are exact under parallel requests: a key already used with the
 * same body answers its first success again and changes nothing; with another body 422 `idempotency_key_reused`.
 * A refusal writes nothing and keeps no answer (the same request may succeed later). A success appends
 * `TrainingSent`, projects `trn_sends` and keeps the answer under the key, in one transaction.
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
  return inTransaction(deps.sql, async (uow) => {
    const tx = uow.sql;
    await tx`select pg_advisory_xact_lock(hashtext(${`trn_send:${caller.userId}`}))`;
    const [used] = await tx<{ body_hash: string; status: number; response: SendView }[]>`
      select body_hash, status, response from trn_send_requests
      where caller_user_id = ${caller.userId} and idempotency_key = ${idempotencyKey}`;
    if (used) {
      if (used.body_hash !== bodyHash) {
        throw unprocessable('idempotency_key_reused', 'this X-Idempotency-Key was used with another body');
      }
      return { status: used.status, view: used.response, replayed: true };
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

    const sendId = randomUUID();
    const sentAt = now.toISOString();
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
      sentAt,
    };
    const result = await deps.store.append(
      sendStream(sendId),
      [
        {
          eventId: sendId,
          type: TRAINING_SENT,
          data,
          metadata: { organizationId: scope.organizationId, actorUserId: caller.userId },
        },
      ],
      { expected: 'no_stream', uow },
    );
    if (result.kind !== 'appended') throw new Error(`send ${sendId}: append ${result.kind}`);
    await applyInline(uow, sendsProjection, result.events);
    const view: SendView = {
      sendId,
      teacherUserId: scope.teacherUserId,
      sentByUserId: caller.userId,
      classId: scope.classId,
      groupId: scope.groupId,
      skillId: data.skillId,
      studentIds: scope.studentIds,
      until: data.untilAt,
      createdAt: sentAt,
    };
    await tx`
      insert into trn_send_requests (caller_user_id, idempotency_key, body_hash, status, response, created_at)
      values (${caller.userId}, ${idempotencyKey}, ${bodyHash}, 201, ${tx.json(view as never)}, ${now})`;
    return { status: 201, view, replayed: false };
  });
}
