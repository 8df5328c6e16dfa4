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
export { installErrorMapper, toApiError } from './errorMapper';
export { ApiErrorSchema, ErrorDetailSchema, errorResponses } from './schemas';
export { closeObjects, validatorCompiler } from './validatorCompiler';
export { validationDetails } from './validationDetails';
