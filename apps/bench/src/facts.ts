import os from 'node:os';
import type { Sql } from '@qiraa/db';
import type { BenchDatabase } from './database';
import { fmt } from './report';

/** node, cpus, os, PostgreSQL version and durability settings, as rows of a two-column table. */
export async function machineFacts(sql: Sql, db: BenchDatabase): Promise<string[][]> {
  const [pg] = await sql<{ version: string; fsync: string; sync: string; shared: string }[]>`
    select version(), current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync,
           current_setting('shared_buffers') as shared`;
  const cpus = os.cpus();
  return [
    ['node', process.version],
    ['cpus', `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}`],
    ['os', `${os.type()} ${os.release()} ${os.arch()}, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB RAM`],
    ['postgres', pg!.version],
    [
      'server',
      `${db.server} (database ${db.name}), fsync=${pg!.fsync}, synchronous_commit=${pg!.sync}, ` +
        `shared_buffers=${pg!.shared}`,
    ],
  ];
}
