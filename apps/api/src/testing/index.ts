export { type Client, client } from './http';
export { createTestApp, TEST_JWT_SECRET, type TestApp } from './testApp';
export { useTestApp, useTestWorld } from './useTestWorld';
export { buildWorld, type Org, PASSWORD, type World } from './world';
