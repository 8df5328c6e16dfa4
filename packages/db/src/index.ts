export { type AnySql, type ConnectOptions, connect, type Sql, type TransactionSql } from './connect';
export { createDatabaseIfMissing, dropDatabase, withDatabase } from './createDatabase';
export { describeDatabaseUrl, isDatabaseUrl, withoutCredentials } from './databaseUrl';
export { assertPostgresCanEnter, folderPostgresCannotEnter } from './dataDirAccess';
export { EMBEDDED_PASSWORD, EMBEDDED_USER, type EmbeddedServer, startEmbeddedPostgres } from './embeddedPostgres';
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
export { SetupError } from './setupError';
export { inTransaction, type UnitOfWork } from './unitOfWork';
