import { type WriteContext, withWriteContext } from '@qiraa/eventstore';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The authenticated user of a request, once the auth hook has resolved it (null: a public route). */
export type RequestActor = (request: FastifyRequest) => { userId: number; organizationId: string | null } | null;

/**
 * Every append a request makes carries its actor, organization and request id (docs/auditing.md, "Event
 * metadata"): the write context is entered in `onRequest` and entered again in `preValidation`, after the
 * auth hook ran and after the body was read (a stream's callbacks do not keep the async context, the reason
 * @fastify/request-context re-enters there too). The request id is both the correlation and the causation
 * of what the request writes; a public route's events name the system actor `request`.
 */
export function installWriteContext(app: FastifyInstance, actorOf: RequestActor): void {
  app.addHook('onRequest', (request, _reply, done) => {
    withWriteContext({ correlationId: request.id, causationId: request.id }, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const actor = actorOf(request);
    const context: WriteContext = actor
      ? {
          actorUserId: actor.userId,
          organizationId: actor.organizationId,
          correlationId: request.id,
          causationId: request.id,
        }
      : { systemActor: 'request', correlationId: request.id, causationId: request.id };
    withWriteContext(context, done);
  });
}
