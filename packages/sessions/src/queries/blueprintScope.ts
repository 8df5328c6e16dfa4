import { contentScope } from '@qiraa/content';
import type { Caller } from '@qiraa/identity';

/**
 * Blueprint scope is content's: global blueprints (organization_id null) are written by the super-admin and
 * read by everyone; an organization's by its own back office. Another organization's is 404.
 */
export const { canSee, visibleScope, writeScope } = contentScope;

export const assertCanChange = (caller: Caller, organizationId: string | null, what: string): void =>
  contentScope.assertCanChange(caller, organizationId, what, 'blueprints are');
