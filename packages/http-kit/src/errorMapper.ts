import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ApiErrorBody } from './apiError';
import { databaseApiError } from './databaseErrors';
import { validationDetails } from './validationDetails';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Strict body (spec, Versioning 3): a key the body does not declare, e.g. a removed one, answers 400
     * `UNKNOWN_FIELD` instead of 422.
     */
    strictBody?: boolean;
  }
}

const byFastifyCode: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'content type not supported; send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'MALFORMED_REQUEST', 'content length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'MALFORMED_JSON', 'body is empty but content type is application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'request body is too large'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'MALFORMED_JSON', 'body is not valid JSON'],
  // Router errors (fastify option `frameworkErrors`): the path could not be matched against any route.
  FST_ERR_BAD_URL: [400, 'MALFORMED_PATH', 'path is not valid percent-encoded UTF-8'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'PATH_PARAMETER_TOO_LONG', 'a path parameter is longer than 100 characters'],
};

/**
 * A domain error that knows its envelope (e.g. the language-safety rule set being unavailable is 503
 * everywhere), so a route need not catch it only to convert it.
 */
export interface MapsToApiError {
  toApiError(): ApiError;
}

const mapsToApiError = (error: unknown): error is MapsToApiError =>
  error instanceof Error && typeof (error as Partial<MapsToApiError>).toApiError === 'function';

/** Turns anything thrown into the ApiError envelope and its status. Unknown errors never leak details. */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (mapsToApiError(error)) return error.toApiError();
  const database = databaseApiError(error);
  if (database) return database;
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(e.validation)) {
    const details = validationDetails(e.validation as never[]);
    const unknownKey = details.some((d) => d.issue === 'is not allowed');
    if (e.validationContext === 'body' && unknownKey && request.routeOptions.config?.strictBody) {
      return new ApiError(400, 'UNKNOWN_FIELD', 'body carries a key this operation does not accept', {
        details: details.filter((d) => d.issue === 'is not allowed'),
      });
    }
    return new ApiError(422, 'VALIDATION_ERROR', 'request failed validation', { details });
  }
  const known = e.code ? byFastifyCode[e.code] : undefined;
  if (known) return new ApiError(known[0], known[1], known[2]);
  if (e instanceof SyntaxError && e.statusCode === 400)
    return new ApiError(400, 'MALFORMED_JSON', 'body is not valid JSON');
  if (e.statusCode === 429) return new ApiError(429, 'RATE_LIMITED', 'too many requests; retry later');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError(e.statusCode, 'BAD_REQUEST', 'request cannot be processed');
  }
  return new ApiError(500, 'INTERNAL', 'unexpected server error');
}

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfter !== undefined) void reply.header('retry-after', String(error.retryAfter));
  const body: ApiErrorBody = error.toBody();
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

/**
 * fastify `frameworkErrors`: errors the router raises before any route or hook runs (a bad percent-encoding,
 * an over-long path parameter) leave as the envelope too, with the request id header the hooks would have set.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', request.id);
  void send(reply, toApiError(error, request));
}

/** The one error mapper: every error and every unknown route leaves as the ApiError envelope. */
export function installErrorMapper(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.code === 'DATABASE_UNAVAILABLE') {
      // An outage, not a bug: one short line per request, no stack trace.
      request.log.warn({ cause: (error as { code?: string }).code }, 'database unavailable');
    } else if (apiError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (!(error instanceof ApiError) && apiError.status < 500 && databaseApiError(error)) {
      // Validation let through a value the database refused: worth a schema fix, so keep the cause.
      request.log.warn({ err: error }, 'database refused a request value');
    }
    return send(reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, new ApiError(404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
