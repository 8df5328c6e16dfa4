export { type Client, client } from './http';
export { createTestApp, TEST_JWT_SECRET, type TestApp } from './testApp';
export { buildWorld, type Org, PASSWORD, type World } from './world';
