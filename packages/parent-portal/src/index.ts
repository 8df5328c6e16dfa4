export { parentPortalContext } from './context';
export { STATUS_PHRASES } from './engine/statusPhrases';
export { TRAJECTORY_LABELS } from './engine/trajectoryLabels';
export { CURRENT_TEMPLATE_LIBRARY, MAX_SUGGESTIONS, TEMPLATE_LIBRARIES } from './rules/templateLibrary';
