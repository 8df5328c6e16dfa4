import postgres from 'postgres';

/** Returns the URL of `name` on the same server as `serverUrl`, creating the database first if needed. */
export async function createDatabaseIfMissing(serverUrl: string, name: string, template?: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`select 1 as present from pg_database where datname = ${name}`;
    if (!row) {
      await (template
        ? admin`create database ${admin(name)} template ${admin(template)}`
        : admin`create database ${admin(name)}`);
    }
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin`drop database if exists ${admin(name)} with (force)`;
  } finally {
    await admin.end();
  }
}

/** Drops every database whose name starts with `prefix` (test runs), several at a time. */
export async function dropDatabasesLike(serverUrl: string, prefix: string, parallel = 8): Promise<void> {
  const admin = postgres(serverUrl, { max: parallel, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string }[]>`
      select datname from pg_database where starts_with(datname, ${prefix})`;
    const names = rows.map((r) => r.datname);
    const next = async (): Promise<void> => {
      const name = names.pop();
      if (name === undefined) return;
      await admin`drop database if exists ${admin(name)} with (force)`;
      return next();
    };
    await Promise.all(Array.from({ length: parallel }, next));
  } finally {
    await admin.end();
  }
}
