import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

export default defineConfig({
  test: {
    projects,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test' },
  },
});
