import type { AnySql } from '@qiraa/db';
import type { DeliveryState, Severity } from '../schemas/notificationKinds';
import { payloadView } from './payloadViews';

/** Page size of `GET /api/notifications`: 20 by default, at most 100. */
export const INBOX_PAGE_DEFAULT = 20;
export const INBOX_PAGE_MAX = 100;

/** An inbox row as its recipient sees it; a parent's row leaves out the three optional internal fields. */
export interface NotificationView {
  id: string;
  recipientUserId?: number;
  kind: string;
  payload: Record<string, unknown>;
  organizationId?: string | null;
  renderedTitleAr: string;
  renderedBodyAr: string;
  severity: Severity;
  deliveryState: DeliveryState;
  sourceEntity?: { sourceEntityType: string; sourceEntityId: string } | null;
  createdAt: string;
  readAt: string | null;
  dismissedAt: string | null;
}

interface Row {
  id: string;
  recipient_user_id: string;
  kind: string;
  payload: Record<string, unknown>;
  organization_id: string | null;
  rendered_title_ar: string;
  rendered_body_ar: string;
  severity: Severity;
  delivery_state: DeliveryState;
  source_entity_type: string | null;
  source_entity_id: string | null;
  created_at: Date;
  created_key: string;
  read_at: Date | null;
  dismissed_at: Date | null;
}

/** The row for its recipient: the payload cut to the kind's view for the persona (see payloadViews.ts). */
function view(r: Row, persona: string): NotificationView {
  const times = {
    createdAt: r.created_at.toISOString(),
    readAt: r.read_at?.toISOString() ?? null,
    dismissedAt: r.dismissed_at?.toISOString() ?? null,
  };
  const shown = {
    id: r.id,
    kind: r.kind,
    payload: payloadView(r.kind, persona, r.payload),
    renderedTitleAr: r.rendered_title_ar,
    renderedBodyAr: r.rendered_body_ar,
    severity: r.severity,
    deliveryState: r.delivery_state,
  };
  if (persona === 'PARENT') return { ...shown, ...times };
  return {
    ...shown,
    recipientUserId: Number(r.recipient_user_id),
    organizationId: r.organization_id,
    sourceEntity:
      r.source_entity_type !== null && r.source_entity_id !== null
        ? { sourceEntityType: r.source_entity_type, sourceEntityId: r.source_entity_id }
        : null,
    ...times,
  };
}

/** Opaque cursor: the last row's (urgent, createdAt at full precision, id). */
interface Cursor {
  u: 0 | 1;
  c: string;
  i: string;
}
const encodeCursor = (r: Row): string =>
  Buffer.from(
    JSON.stringify({ u: r.severity === 'urgent' ? 1 : 0, c: r.created_key, i: r.id } satisfies Cursor),
  ).toString('base64url');

/** The cursor, or null when it is not one of ours (the route answers 422). */
export function decodeCursor(cursor: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    if ((c.u !== 0 && c.u !== 1) || typeof c.c !== 'string' || Number.isNaN(Date.parse(c.c))) return null;
    if (typeof c.i !== 'string' || !uuid.test(c.i)) return null;
    return { u: c.u, c: c.c, i: c.i };
  } catch {
    return null;
  }
}

const columns = (sql: AnySql) => sql`
  id, recipient_user_id, kind, payload, organization_id, rendered_title_ar, rendered_body_ar, severity,
  delivery_state, source_entity_type, source_entity_id, created_at, created_at::text as created_key, read_at,
  dismissed_at`;

export interface InboxFilter {
  state?: 'delivered_in_app' | 'read';
  kind?: string;
  severity?: Severity;
}

/** The recipient's inbox: urgent first, then newest first (id breaks ties); dismissed rows never listed. */
export async function listInbox(
  sql: AnySql,
  recipient: { userId: number; persona: string },
  filter: InboxFilter,
  page: { limit: number; after: Cursor | null },
): Promise<{ items: NotificationView[]; nextCursor: string | null }> {
  const after = page.after;
  const recipientUserId = recipient.userId;
  const rows = await sql<Row[]>`
    select ${columns(sql)} from notifications
    where recipient_user_id = ${recipientUserId} and delivery_state <> 'dismissed'
      ${filter.state ? sql`and delivery_state = ${filter.state}` : sql``}
      ${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
      ${filter.severity ? sql`and severity = ${filter.severity}` : sql``}
      ${
        after
          ? sql`and ((severity = 'urgent')::int, created_at, id) < (${after.u}, ${after.c}::timestamptz, ${after.i}::uuid)`
          : sql``
      }
    order by (severity = 'urgent') desc, created_at desc, id desc
    limit ${page.limit + 1}`;
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown.at(-1);
  return { items: shown.map((r) => view(r, recipient.persona)), nextCursor: more && last ? encodeCursor(last) : null };
}

export async function unreadCount(sql: AnySql, recipientUserId: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from notifications
    where recipient_user_id = ${recipientUserId} and delivery_state = 'delivered_in_app'`;
  return row?.count ?? 0;
}

export async function notificationOf(
  sql: AnySql,
  recipient: { userId: number; persona: string },
  notificationId: string,
): Promise<NotificationView | null> {
  const [row] = await sql<Row[]>`
    select ${columns(sql)} from notifications where id = ${notificationId} and recipient_user_id = ${recipient.userId}`;
  return row ? view(row, recipient.persona) : null;
}
