import { eventTypeFilter, excludeSystemEvents, type Filter } from '@eventstore/db-client';

/** KurrentDB's own events ($metadata, $>, $statsCollected, ...) are never part of our log. */
export function isSystemType(type: string): boolean {
  return type.startsWith('$');
}

export function typeMatcher(types?: readonly string[]): (type: string) => boolean {
  if (!types) return (type) => !isSystemType(type);
  const wanted = new Set(types);
  return (type) => !isSystemType(type) && wanted.has(type);
}

/** The same choice as `typeMatcher`, made on the server so a subscription is not sent what it would drop. */
export function serverTypeFilter(types?: readonly string[]): Filter {
  if (!types) return excludeSystemEvents();
  // An exact, anchored alternation: a prefix filter would also let `KeptOther` through for `Kept`.
  const regex = types.length === 0 ? '(?!)' : `^(?:${types.map(escapeRegex).join('|')})$`;
  return eventTypeFilter({ regex });
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
