export {
  decideProfile,
  decideRecommendation,
  domainMasteryOf,
  domainStatusesOf,
  type ProfileCatalog,
} from './decideProfiles';
export {
  BUNDLE_BLOCKED,
  BUNDLE_RECOMMENDED,
  type BundleRecommendationDecided,
  PROFILE_EVENT_TYPES,
  PROFILE_RESOLVED,
  type ProfileResolved,
} from './profileEvents';
export { profileNotifier, wantsProfileSwap, wantsSkillAlert } from './profileNotifier';
export {
  isDataIncomplete,
  profileOf,
  profilesOfClass,
  profileWindowsOf,
  recommendationOf,
  recommendationsOfClass,
} from './profileOf';
export { profileProjection } from './profileProjection';
export {
  ProfileQuery,
  ProfileResponse,
  type ProfileView,
  RecommendationResponse,
  type RecommendationView,
} from './profileSchemas';
export { profileCatalogOf, profileDecisionIdOf, recommendationIdOf } from './profileStep';
export {
  ANCHOR_GROUPS,
  type AnchorGroup,
  DATA_INCOMPLETE,
  NEXT_DATA_ACTIONS,
  type NextDataAction,
  PROFILE_CODES,
  PROFILE_NAMES,
  type ProfileCode,
  type ProfileName,
  RECOMMENDATION_OUTCOMES,
  type RecommendationOutcome,
  SCAFFOLD_TIERS,
  type ScaffoldTier,
} from './profileTypes';
