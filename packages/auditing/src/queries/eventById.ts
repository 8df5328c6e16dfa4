import type { EventStore } from '@qiraa/eventstore';
import { notFound } from '@qiraa/http-kit';
import { type EventItem, toEventItem } from './eventItem';
import { streamScope } from './streamOrganization';

/** How many caused events one answer lists (the oldest first). */
export const CAUSED_MAX = 500;

async function oneEvent(store: EventStore, eventId: string, organizationId: string | null): Promise<EventItem | null> {
  const [event] = await store.readEventsById([eventId], streamScope(organizationId));
  return event ? toEventItem(event) : null;
}

/** 404 unless the event exists in a stream of the organization (any for the super scope). */
export async function eventInScope(
  store: EventStore,
  eventId: string,
  organizationId: string | null,
): Promise<EventItem> {
  const event = await oneEvent(store, eventId, organizationId);
  if (!event) throw notFound('event');
  return event;
}

/**
 * An event, the event its `causationId` names (null when it names a request, a tick, a command or an
 * outside id, or an event the caller may not read) and the events whose `causationId` is this event.
 */
export async function eventWithCauses(store: EventStore, eventId: string, organizationId: string | null) {
  const event = await eventInScope(store, eventId, organizationId);
  const causation = event.metadata.causationId;
  const causedBy =
    typeof causation === 'string' && causation.toLowerCase() !== event.eventId
      ? await oneEvent(store, causation, organizationId)
      : null;
  const caused = await store.readEventsCausedBy(event.eventId, {
    limit: CAUSED_MAX,
    scope: streamScope(organizationId),
  });
  return { event, causedBy, caused: caused.map(toEventItem) };
}
