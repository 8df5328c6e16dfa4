export { parentPortalContext } from './context';
export { STATUS_PHRASES } from './labels/statusPhrases';
export { TRAJECTORY_LABELS } from './labels/trajectory';
export { CURRENT_TEMPLATE_LIBRARY, MAX_SUGGESTIONS, TEMPLATE_LIBRARIES } from './templates/templateLibrary';
