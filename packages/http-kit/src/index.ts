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
export { installErrorMapper, type MapsToApiError, toApiError } from './errorMapper';
export { ApiErrorSchema, ErrorDetailSchema, errorResponses } from './schemas';
export { validationDetails } from './validationDetails';
export { closeObjects, compileBodyValidator, validatorCompiler } from './validatorCompiler';
