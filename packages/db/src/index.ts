export { type AnySql, type ConnectOptions, connect, type Sql, type TransactionSql } from './connect';
export { createDatabaseIfMissing, dropDatabase, withDatabase } from './createDatabase';
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
export { type DatabaseLocation, EMBEDDED_DATABASE, openDatabase } from './openDatabase';
export { inTransaction, type UnitOfWork } from './unitOfWork';
