export interface ErrorDetail {
  field: string;
  issue: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: ErrorDetail[];
  retryAfter?: number;
  /** Refusal reason code on several 409 and 422 answers (spec: Errors, "Additional rules"). */
  reason?: string;
}

/** The one error type routes and commands throw; the error mapper turns it into the ApiError envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: ErrorDetail[];
  readonly retryAfter?: number;
  readonly reason?: string;

  constructor(status: number, code: string, message: string, extra: Omit<ApiErrorBody, 'code' | 'message'> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (extra.details) this.details = extra.details;
    if (extra.retryAfter !== undefined) this.retryAfter = extra.retryAfter;
    if (extra.reason) this.reason = extra.reason;
  }

  toBody(): ApiErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.retryAfter !== undefined ? { retryAfter: this.retryAfter } : {}),
      ...(this.reason ? { reason: this.reason } : {}),
    };
  }
}

export const notFound = (what = 'resource') => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const permissionDenied = (message = 'permission set does not cover the operation') =>
  new ApiError(403, 'PERMISSION_DENIED', message);
export const conflict = (reason: string, message = 'conflict', code = 'CONFLICT') =>
  new ApiError(409, code, message, { reason });
export const unprocessable = (reason: string, message = 'request refused', details?: ErrorDetail[]) =>
  new ApiError(422, 'VALIDATION_ERROR', message, { reason, ...(details ? { details } : {}) });
export const validationFailed = (details: ErrorDetail[]) =>
  new ApiError(422, 'VALIDATION_ERROR', 'request failed validation', { details });
export const rateLimited = (retryAfter: number) =>
  new ApiError(429, 'RATE_LIMITED', 'too many requests; retry later', { retryAfter });
