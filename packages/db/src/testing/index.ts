export { ENTRIES, type Entry, type EntryBundles } from './entries';
export { entryArgs, npmWithBundles } from './entryCommand';
export { type OlderTransaction, olderTransaction } from './olderTransaction';
export { createTestDatabase, type TestDatabase } from './testDatabase';
