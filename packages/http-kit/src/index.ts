export {
  ApiError,
  type ApiErrorBody,
  conflict,
  type ErrorDetail,
  notFound,
  permissionDenied,
  rateLimited,
  unprocessable,
  validationFailed,
} from './apiError';
export { clientErrorHandler, clientErrorResponse } from './clientErrors';
export { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from './databaseErrors';
export {
  ENGINE_UNAVAILABLE,
  type Engine,
  EngineUnavailableError,
  evaluateEngineRules,
  readEngineRules,
} from './engineUnavailable';
export { frameworkErrors, installErrorMapper, type MapsToApiError, toApiError } from './errorMapper';
export { isCalendarDay, isDateTime } from './formats';
export { ApiErrorSchema, ErrorDetailSchema, errorResponses, refusalResponses } from './schemas';
export { validationDetails } from './validationDetails';
export { boundIntegers, closeObjects, compileBodyValidator, validatorCompiler } from './validatorCompiler';
export { BigintId, DateTime, MAX_INT4, PositiveInt4, SchoolDay } from './valueSchemas';
export { installWriteContext, type RequestActor } from './writeContext';
