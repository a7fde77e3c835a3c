import { defineConfig } from 'vitest/config';

// The system suite: reliability and security promises, proven against the apps as real
// processes. `npm test` runs the fast versions; `npm run test:soak` (RD_SOAK=1) runs the long
// ones — more fuzz cases, more fault rounds, the load soak — and prints the summary table.

const soak = process.env.RD_SOAK === '1';

export default defineConfig({
  test: {
    name: 'system',
    // Position in the root run (see /vitest.config.ts).
    sequence: { groupOrder: 4 },
    include: soak ? ['*.test.ts', 'soak/*.soak.ts'] : ['*.test.ts'],
    environment: 'node',
    // One PostgreSQL server for the run: the replica suite's databases.
    globalSetup: ['support/figures-setup.ts', '../packages/server/test-support/postgres-setup.ts'],
    setupFiles: ['support/figures-results.ts'],
    // Each file starts its own processes; two files at a time keep a 2-core machine busy, not drowned.
    maxWorkers: 2,
    // Generous: the processes share a small, busy machine. The soak is bounded by its own clock.
    testTimeout: soak ? 60 * 60_000 : 180_000,
    hookTimeout: 120_000,
  },
});
