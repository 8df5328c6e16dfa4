import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { inOrganization } from '../streamOrganization';
import { type EventItem, type EventItemRow, eventItemColumns, toEventItem } from './eventItem';

/** How many caused events one answer lists (the oldest first). */
export const CAUSED_MAX = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function oneEvent(sql: AnySql, eventId: string, organizationId: string | null): Promise<EventItem | null> {
  if (!UUID.test(eventId)) return null;
  const [row] = await sql<EventItemRow[]>`
    select ${eventItemColumns(sql)} from es_events e join es_streams s on s.stream_id = e.stream_id
    where e.event_id = ${eventId}::uuid ${inOrganization(sql, organizationId)}`;
  return row ? toEventItem(row) : null;
}

/** 404 unless the event exists in a stream of the organization (any for the super scope). */
export async function eventInScope(sql: AnySql, eventId: string, organizationId: string | null): Promise<EventItem> {
  const event = await oneEvent(sql, eventId, organizationId);
  if (!event) throw notFound('event');
  return event;
}

/**
 * An event, the event its `causationId` names (null when it names a request, a tick, a command or an
 * outside id, or an event the caller may not read) and the events whose `causationId` is this event.
 */
export async function eventWithCauses(sql: AnySql, eventId: string, organizationId: string | null) {
  const event = await eventInScope(sql, eventId, organizationId);
  const causation = event.metadata.causationId;
  const causedBy =
    typeof causation === 'string' && causation.toLowerCase() !== event.eventId
      ? await oneEvent(sql, causation, organizationId)
      : null;
  const rows = await sql<EventItemRow[]>`
    select ${eventItemColumns(sql)} from es_events e join es_streams s on s.stream_id = e.stream_id
    where e.metadata ? 'causationId' and e.metadata->>'causationId' = ${event.eventId}
      and e.event_id <> ${event.eventId}::uuid
      ${inOrganization(sql, organizationId)}
    order by e.transaction_id, e.global_position limit ${CAUSED_MAX}`;
  return { event, causedBy, caused: rows.map(toEventItem) };
}
