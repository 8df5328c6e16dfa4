export { type AnySql, type ConnectOptions, connect, type Sql, type SqlFragment, type TransactionSql } from './connect';
export { createDatabaseIfMissing, dropDatabase, dropDatabasesLike, withDatabase } from './createDatabase';
export { isDatabaseUnavailable } from './databaseUnavailable';
export { describeDatabaseUrl, isDatabaseUrl, withoutCredentials } from './databaseUrl';
export { assertPostgresCanEnter, folderPostgresCannotEnter } from './dataDirAccess';
export {
  EMBEDDED_PASSWORD,
  EMBEDDED_USER,
  type EmbeddedServer,
  runningCluster,
  startEmbeddedPostgres,
} from './embeddedPostgres';
export { ensureDirectory } from './ensureDirectory';
export { freeLoopbackPort } from './freePort';
export {
  MIGRATIONS_DIR,
  type MigrateResult,
  MigrationError,
  type MigrationFile,
  migrate,
  migrateOrThrow,
  pendingMigrations,
  readMigrationFiles,
} from './migrate';
export { type DatabaseLocation, EMBEDDED_DATABASE, type EmbeddedCluster, openDatabase } from './openDatabase';
export { probeDatabase } from './probeDatabase';
export { onPoolWait, POOL_WAIT_MS, type PoolWait, type ReservedSql, reserveWithin } from './reserveWithin';
export { SetupError } from './setupError';
export { commitAfter, inTransaction, type TransactionOptions, type UnitOfWork } from './unitOfWork';
export { WireCounter, type WireCounts } from './wireCounter';
export {
  disableWriteCombiner,
  enableWriteCombiner,
  type WriteCombiner,
  type WriteCombinerOptions,
  type WriteCombinerStats,
  writeCombiner,
  writeCombinerOf,
} from './writeCombiner';
