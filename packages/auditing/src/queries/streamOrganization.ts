import type { StreamScope } from '@qiraa/eventstore';
import { userOrganizationQuery } from '@qiraa/identity';

/**
 * The event store's scope for an organization's auditor: its streams are those its events' metadata named, else
 * those whose first student is one of its users (identity's fragment, so users stay identity's table); null, the
 * super scope, reads every stream.
 */
export const streamScope = (organizationId: string | null): StreamScope | null =>
  organizationId === null ? null : { organizationId, studentOrganization: userOrganizationQuery };
