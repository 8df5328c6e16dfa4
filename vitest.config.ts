import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

export default defineConfig({
  test: {
    projects,
    reporters: ['default', './packages/db/src/testing/summaryReporter.ts'],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test' },
  },
});
