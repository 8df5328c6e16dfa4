import { AsyncLocalStorage } from 'node:async_hooks';
import type { RecordedEvent } from '@qiraa/eventstore';
import type { ContextDeps } from '@qiraa/kernel';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EVIDENCE_SETTLING_TYPES, touchedStudents } from '../projections/skillStatusReactor';
import { recomputeSkillStatus } from './recomputeSkillStatus';

/**
 * Above this many students touched by one request (a window close ends every open sitting of an
 * organization), the request does not wait: the reactor recomputes them in the background.
 */
export const INLINE_RECOMPUTE_LIMIT = 40;

/**
 * Read-your-writes for decisions without the assessment context knowing of them. The event store tells its
 * listeners about every committed append; the listener runs in the request's async context, so the request's
 * settling evidence events are collected here, and before the response leaves (onSend) the touched students
 * are recomputed, the way the reactor would. A failure is logged and left to the reactor: the evidence is
 * committed, the request succeeded.
 */
export const recomputeAfterEvidence = (deps: ContextDeps) =>
  fp(async (app: FastifyInstance) => {
    const requestEvents = new AsyncLocalStorage<RecordedEvent[]>();
    deps.store.onAppended((events) => {
      const collected = requestEvents.getStore();
      if (!collected) return;
      for (const e of events) if ((EVIDENCE_SETTLING_TYPES as readonly string[]).includes(e.type)) collected.push(e);
    });
    app.addHook('onRequest', (_request, _reply, done) => {
      requestEvents.run([], done);
    });
    app.addHook('onSend', async (request, _reply, payload) => {
      const collected = requestEvents.getStore();
      if (!collected || collected.length === 0) return payload;
      try {
        const students = await touchedStudents(deps.sql, collected);
        if (students.length <= INLINE_RECOMPUTE_LIMIT) {
          for (const studentId of students) await recomputeSkillStatus(deps, studentId);
        }
      } catch (error) {
        request.log.warn({ err: error }, 'inline skill-status recompute failed; the reactor will catch up');
      }
      return payload;
    });
  });
