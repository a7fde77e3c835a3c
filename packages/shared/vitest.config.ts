import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared',
    // Position in the root run (see /vitest.config.ts).
    sequence: { groupOrder: 0 },
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
