import { defineConfig } from 'vitest/config';

// One run for every workspace's unit and integration tests; each workspace names its project.
// Each project sets `sequence.groupOrder`: the run takes the projects one at a time in that order
// (shared, api, bff, web, system), each with its own worker count, so suites that start real
// processes don't compete for the two cores.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'packages/server', 'apps/api', 'apps/bff', 'apps/web', 'test'],
  },
});
