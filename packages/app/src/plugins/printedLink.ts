/**
 * The printed sheets' QR codes point at `{QIRAA_PUBLIC_URL}/s/<slotId>` (docs/sessions.md, "The QR link"):
 * this service answers that path as `GET /api/sessions/links/<slotId>`, so the link goes through the same
 * authentication, validation and error envelope as every /api route.
 */
const PRINTED_LINK = /^\/s\/([^/?#]+)\/?(\?.*)?$/;

export function rewritePrintedLink(url: string): string {
  const match = PRINTED_LINK.exec(url);
  return match ? `/api/sessions/links/${match[1]}${match[2] ?? ''}` : url;
}
