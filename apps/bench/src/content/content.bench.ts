/**
 * npm run bench:content
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), the content
 * import in-process (importContent + approveImportBatch, as `POST /api/items/import` and its approval run it):
 * 1. the demo content pack (content/pack), first import and approval, then the idempotent re-import;
 * 2. synthetic content bundles near the 2 MB and 10 MB limits: import (row checks, the language filter on every
 *    student-facing string, one transaction), approval (retire, publish, item-bank pin), and re-import (all
 *    rows unchanged).
 * 3. the event loop during a large import: the real API on a loopback port, /healthz latency (max, p99) while a
 *    ~10 MB bundle goes through POST /api/items/import, beside the same figures with nothing else running.
 * Figures: wall time, decoded MB/s and rows/s, side by side; the last line is the JSON line of jsonLine.ts.
 */
import { readFile } from 'node:fs/promises';
import { approveImportBatch, type ImportBodyInput, importContent } from '@qiraa/content';
import { connect, migrateOrThrow, type Sql } from '@qiraa/db';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { timed } from '../measure';
import { figure, fmt, formatTable, section } from '../report';
import { type HealthzLatency, healthzDuringImport } from './healthzDuringImport';
import { jsonBytes, syntheticBundle } from './syntheticBundle';

const PACK_DIR = new URL('../../../../content/pack/', import.meta.url);

interface Row {
  what: string;
  bytes: number;
  rows: number;
  ms: number;
}

async function importAndApprove(sql: Sql, what: string, bodies: ImportBodyInput[]): Promise<Row[]> {
  const bytes = bodies.reduce((n, b) => n + jsonBytes(b), 0);
  const batches: string[] = [];
  let rows = 0;
  const imported = await timed(async () => {
    for (const body of bodies) {
      const report = await importContent({ sql }, { organizationId: null, createdBy: null, body });
      if (report.counts.rejected > 0) throw new Error(`${what}: ${report.counts.rejected} rows rejected`);
      batches.push(report.batchId);
      rows += report.counts.rows;
    }
  });
  const approved = await timed(async () => {
    for (const batchId of batches) {
      const result = await approveImportBatch({ sql }, { batchId, approvedBy: null, exceptions: [] });
      if (result.outcome !== 'approved') throw new Error(`${what}: approval ${result.outcome}`);
    }
  });
  return [
    { what: `${what}: import`, bytes, rows, ms: imported.elapsedMs },
    { what: `${what}: approve`, bytes, rows, ms: approved.elapsedMs },
  ];
}

const latencyRow = (what: string, l: HealthzLatency) => [what, fmt(l.probes), fmt(l.p99Ms, 1), fmt(l.maxMs, 1)];

async function main(): Promise<void> {
  const db = await acquireDatabase((line) => console.error(line));
  const sql = connect(db.url, { max: 4 });
  let figures: Record<string, BenchFigure> = {};
  try {
    await migrateOrThrow(sql);
    const manifest = JSON.parse(await readFile(new URL('manifest.json', PACK_DIR), 'utf8')) as { files: string[] };
    const pack = await Promise.all(
      manifest.files.map(async (f) => JSON.parse(await readFile(new URL(f, PACK_DIR), 'utf8')) as ImportBodyInput),
    );
    const small = syntheticBundle('b2', 270, 16);
    const large = syntheticBundle('b10', 1350, 16);
    const rows: Row[] = [
      ...(await importAndApprove(sql, 'demo pack', pack)),
      ...(await importAndApprove(sql, 'demo pack again (unchanged)', pack)),
      ...(await importAndApprove(sql, 'bundle ~2 MB', [small])),
      ...(await importAndApprove(sql, 'bundle ~2 MB again (unchanged)', [small])),
      ...(await importAndApprove(sql, 'bundle ~10 MB', [large])),
      ...(await importAndApprove(sql, 'bundle ~10 MB again (unchanged)', [large])),
    ];
    const healthz = await healthzDuringImport(db.url);
    section('machine');
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    section('content import (in-process, one transaction per batch)');
    console.log(
      formatTable(
        ['step', 'decoded MB', 'rows', 'wall ms', 'MB/s', 'rows/s'],
        rows.map((r) => [
          r.what,
          fmt(r.bytes / 2 ** 20, 2),
          fmt(r.rows),
          fmt(r.ms),
          fmt(r.bytes / 2 ** 20 / (r.ms / 1000), 2),
          fmt(r.rows / (r.ms / 1000)),
        ]),
      ),
    );
    section('/healthz while a ~10 MB import runs (real API, loopback, one probe after another)');
    console.log(
      formatTable(
        ['while', 'probes', 'p99 ms', 'max ms'],
        [
          latencyRow('nothing else runs (baseline)', healthz.idle),
          latencyRow(
            `an import of ${fmt(healthz.importBytes / 2 ** 20, 2)} MB (${fmt(healthz.importMs)} ms)`,
            healthz.importing,
          ),
        ],
      ),
    );
    figures = Object.fromEntries(
      rows.map((r) => [
        r.what
          .replaceAll(/[^A-Za-z0-9]+/g, '_')
          .replace(/^_|_$/g, '')
          .toLowerCase(),
        figure(r.bytes / 2 ** 20 / (r.ms / 1000), null, 'decoded MB/s'),
      ]),
    );
    // The API's answer time while an import runs, beside the same probe with nothing else running.
    figures.healthz_max_during_10mb_import = figure(healthz.importing.maxMs, healthz.idle.maxMs, 'ms');
    figures.healthz_p99_during_10mb_import = figure(healthz.importing.p99Ms, healthz.idle.p99Ms, 'ms');
  } finally {
    await sql.end();
    await db.release();
  }
  printBenchJson('content', figures);
}

await main();
