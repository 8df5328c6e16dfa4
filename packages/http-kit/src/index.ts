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
export { frameworkErrors, installErrorMapper, type MapsToApiError, toApiError } from './errorMapper';
export { isCalendarDay, isDateTime } from './formats';
export { ApiErrorSchema, ErrorDetailSchema, errorResponses } from './schemas';
export { validationDetails } from './validationDetails';
export { boundIntegers, closeObjects, compileBodyValidator, validatorCompiler } from './validatorCompiler';
export { BigintId, DateTime, MAX_INT4, PositiveInt4, SchoolDay } from './valueSchemas';
