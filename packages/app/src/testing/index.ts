export { type Client, client } from './http';
export { assert as assertPasskey, createPasskey, type SoftPasskey } from './softAuthenticator';
export { createTestApp, TEST_JWT_SECRET, TEST_METRICS_TOKEN, type TestApp } from './testApp';
export { useTestApp, useTestWorld } from './useTestWorld';
export { buildWorld, type Org, PASSWORD, type World } from './world';
