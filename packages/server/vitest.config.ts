import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // Position in the root run (see /vitest.config.ts): after shared, before the apps.
    sequence: { groupOrder: 0 },
    include: ['src/**/*.test.ts', 'test-support/*.test.ts'],
    environment: 'node',
    // One PostgreSQL server for the run; each test file makes its own database on it.
    globalSetup: ['test-support/postgres-setup.ts'],
    // Some tests start processes that share one database: room for a busy two-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
