import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch } from './e2e/support/chromium.ts';

// Browser tests against the whole system: `node scripts/start.ts` (the API with demo data and
// its dev outbox, the BFF serving the freshly built dashboard) on ports of their own and a fresh
// data directory, driven by the Chromium that `npm ci` installs (e2e/support/chromium.ts; unpacked
// once by the global setup, before any worker starts). Set E2E_BASE_URL and E2E_API_URL to run
// against a stack that is already up instead.

const external = process.env.E2E_BASE_URL !== undefined;
const bffPort = process.env.E2E_BFF_PORT ?? '18080';
const apiPort = process.env.E2E_API_PORT ?? '14000';
// Workers load this file too: they inherit the directory the main process made.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'review-desk-e2e-'));
process.env.E2E_PASSWORD ??= 'e2e-demo-password-2024';
process.env.E2E_BASE_URL ??= `http://127.0.0.1:${bffPort}`;
process.env.E2E_API_URL ??= `http://127.0.0.1:${apiPort}`;

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // Chromium, the API and the BFF share the machine's cores: one worker per two cores.
  workers: Math.max(1, Math.floor(availableParallelism() / 2)),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Generous: the stack under test shares a small, busy machine.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunch(),
      },
    },
  ],
  webServer: external
    ? undefined
    : {
        // Build first: the BFF serves apps/web/dist, and the tests must see the current code.
        command: 'npm run build -w apps/web && node scripts/start.ts',
        url: `${process.env.E2E_BASE_URL}/healthz`,
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: 'pipe',
        stderr: 'pipe',
        env: {
          REVIEW_DESK_DATA_DIR: process.env.E2E_DATA_DIR,
          DEMO_PASSWORD: process.env.E2E_PASSWORD,
          PORT: bffPort,
          API_PORT: apiPort,
          // Any hour, so a run at night sends at once.
          QUIET_HOURS: process.env.QUIET_HOURS ?? 'off',
          // New reviews reach the bell within seconds (e2e/alerts.spec.ts).
          ALERT_POLL_SECONDS: process.env.ALERT_POLL_SECONDS ?? '2',
          // Webhooks to the stand-in receiver on this machine, over HTTPS with its own certificate
          // (e2e/integrations.spec.ts): for tests and the demo only, as with the dev outbox.
          WEBHOOKS_ALLOW_PRIVATE: '1',
          NODE_EXTRA_CA_CERTS: path.resolve(import.meta.dirname, 'test/support/tls/receiver-cert.pem'),
        },
      },
});
