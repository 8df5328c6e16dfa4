export { createTestDatabase, type TestDatabase } from './testDatabase';
