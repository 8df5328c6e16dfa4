import { type TSchema, Type } from 'typebox';

export const ErrorDetailSchema = Type.Object({ field: Type.String(), issue: Type.String() });

export const ApiErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'stable machine key' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(ErrorDetailSchema)),
    retryAfter: Type.Optional(Type.Integer({ minimum: 0, description: 'seconds' })),
    reason: Type.Optional(Type.String({ description: 'refusal reason code' })),
  },
  { $id: 'ApiError', title: 'ApiError' },
);

const describedStatus: Record<number, string> = {
  400: 'Malformed request (bad JSON, a removed key on a strict body)',
  401: 'Not authenticated',
  403: 'Authenticated, but the permission set does not cover the operation',
  404: 'Not found, or in another organization',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed (stale version)',
  413: 'Payload too large',
  415: 'Unsupported media type',
  428: 'Precondition required (send If-Match)',
  422: 'Validation failed; details name each field',
  429: 'Rate limited; honor Retry-After',
  500: 'Unexpected server error',
  503: 'A dependency is unavailable',
};

/** Response-schema entries for the error statuses a route can answer, all with the ApiError envelope. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      Type.Ref('ApiError', { description: describedStatus[status] ?? 'Error' }) as unknown as TSchema,
    ]),
  );
}

/**
 * Error entries naming the refusal `reason`s a status carries on a route, in its OpenAPI description: the refusals
 * the spec does not name (docs/api.md, "Refusals the spec does not name"). Spread after `errorResponses`.
 */
export function refusalResponses(reasons: Readonly<Record<number, readonly string[]>>): Record<number, TSchema> {
  return Object.fromEntries(
    Object.entries(reasons).map(([status, codes]) => [
      Number(status),
      Type.Ref('ApiError', {
        description: `${describedStatus[Number(status)] ?? 'Error'}; reason: ${codes.join(', ')}`,
      }) as unknown as TSchema,
    ]),
  );
}
