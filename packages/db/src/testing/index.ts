export { ENTRIES, type Entry, type EntryBundles } from './entries';
export { entryArgs, npmWithBundles } from './entryCommand';
export { createTestDatabase, type TestDatabase } from './testDatabase';
