import postgres from 'postgres';

/**
 * Where a PostgreSQL URL points, for messages and logs: host, port and database, never the user's password.
 * Undefined when the URL cannot be read at all.
 */
export function describeDatabaseUrl(url: string): string | undefined {
  try {
    const { host, port, database, user } = postgres(url, { max: 1 }).options;
    const hosts = host.map((h, i) => `${h}:${port[i] ?? port[0]}`).join(',');
    return `${user ? `${user}@` : ''}${hosts}/${database}`;
  } catch {
    return undefined;
  }
}

/** True when postgres.js can read the URL (the same parser that will connect with it). */
export function isDatabaseUrl(url: string): boolean {
  if (!/^postgres(ql)?:\/\//i.test(url)) return false;
  return describeDatabaseUrl(url) !== undefined;
}

/** Removes the password of any `scheme://user:password@` in a message (driver errors may quote the URL). */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@]*@/gi, '$1:***@');
}
