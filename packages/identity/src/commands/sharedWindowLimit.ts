import type { AnySql } from '@qiraa/db';
import { rateLimited } from '@qiraa/http-kit';
import type { Clock } from '@qiraa/kernel';

export interface SharedLimit {
  kind: string;
  max: number;
  windowMs: number;
}

/**
 * One hit against a limit kept in PostgreSQL, so every API process counts against the same limit (an in-memory
 * counter multiplies it by the number of processes). The subject's window opens at its first hit and lasts
 * `windowMs`; one upsert per hit, atomic under parallel requests. Past `max`, 429 RATE_LIMITED with `retryAfter`,
 * the seconds until the window ends.
 */
export async function hitSharedWindow(sql: AnySql, clock: Clock, limit: SharedLimit, subject: string): Promise<void> {
  const now = clock.now();
  const expired = new Date(now.getTime() - limit.windowMs);
  const [row] = await sql<{ hits: number; window_start: Date }[]>`
    insert into rate_windows as w (kind, subject, window_start, hits) values (${limit.kind}, ${subject}, ${now}, 1)
    on conflict (kind, subject) do update set
      window_start = case when w.window_start <= ${expired} then ${now} else w.window_start end,
      hits = case when w.window_start <= ${expired} then 1 else w.hits + 1 end
    returning hits, window_start`;
  if (row!.hits > limit.max) {
    const ends = row!.window_start.getTime() + limit.windowMs;
    throw rateLimited(Math.max(1, Math.ceil((ends - now.getTime()) / 1000)));
  }
}
