import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    // Position in the root run (see /vitest.config.ts).
    sequence: { groupOrder: 1 },
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One PostgreSQL server for the run: the settings store's tests run on both engines.
    globalSetup: ['../../packages/server/test-support/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files share workers: each starts its own server on its own temporary database, so
    // nothing leaks between them, and the modules load once instead of once per file.
    isolate: false,
  },
});
