import type { Gendered } from '@qiraa/identity';

/**
 * A completed diagnostic with no measure level to read (every measure incomplete or without a cut table): the
 * diagnostics label set's fifth category besides the four status phrases. It speaks of the child, so it agrees
 * with the child's gender.
 */
export const DIAGNOSTIC_DONE_LABELS: Gendered = {
  male: 'اكتمل التقييم، ونواصل التعرّف على مهاراته',
  female: 'اكتمل التقييم، ونواصل التعرّف على مهاراتها',
  neutral: 'اكتمل التقييم، ونواصل التعرّف على المهارات',
};
