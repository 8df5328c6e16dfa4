import { buildApp } from '@qiraa/app';
import { connect } from '@qiraa/db';
import { postgresEventStore } from '@qiraa/eventstore';
import { systemClock } from '@qiraa/kernel';
import { inProcessProjector } from '@qiraa/projections';
import { allProjections, contexts } from '@qiraa/runtime';

/**
 * The OpenAPI document, built from the route schemas without touching a database: postgres.js connects
 * lazily and nothing here runs a query.
 */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  const sql = connect('postgres://openapi@127.0.0.1:1/openapi', { max: 1 });
  const store = postgresEventStore(sql);
  const projector = inProcessProjector({ sql, store }, allProjections(contexts));
  const app = await buildApp(
    {
      sql,
      store,
      projector,
      contexts,
      readiness: [],
      deps: {
        sql,
        store,
        projector,
        nodeEnv: 'openapi',
        clock: systemClock,
        jwtSecret: 'openapi-document-has-no-tokens-to-sign-0000',
      },
    },
    { logLevel: 'silent' },
  );
  await app.ready();
  const document = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  await sql.end({ timeout: 0 });
  return document;
}

/** Stable text: the committed file only changes when a schema does. */
export const serializeOpenapi = (document: Record<string, unknown>) => `${JSON.stringify(document, null, 2)}\n`;
