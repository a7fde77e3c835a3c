import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { chunkGroups } from './build/chunks.ts';
import { themeVariables } from './build/theme-variables.ts';

// The dev server sits in front of a running BFF (root `npm run dev`). The BFF refuses
// state-changing requests whose Origin is not its own (CSRF rule), so the dev proxy presents
// the BFF's origin: the browser only ever talks to this one origin, as in production.
const bffUrl = process.env.BFF_URL ?? 'http://127.0.0.1:8080';
const bffOrigin = new URL(bffUrl).origin;
const toBff: ProxyOptions = {
  target: bffUrl,
  changeOrigin: true,
  configure(proxy) {
    proxy.on('proxyReq', (proxyReq) => {
      if (proxyReq.getHeader('origin')) proxyReq.setHeader('origin', bffOrigin);
    });
  },
};

const chunks = chunkGroups();

export default defineConfig({
  plugins: [react(), chunks.plugin, themeVariables(import.meta.dirname)],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': toBff, '/auth': toBff, '/bff': toBff },
  },
  preview: { host: '127.0.0.1' },
  build: {
    target: 'es2022',
    // Budgets: bench/budgets.json (test/first-load.test.ts holds every page to its own). Warn when
    // a chunk grows big: the analytics chunk (charts) is the big one, and lazy.
    chunkSizeWarningLimit: 500,
    // Read by scripts/first-load.ts to measure what a page loads.
    manifest: true,
    // No polyfill for <link rel="modulepreload">: every browser the dashboard supports has it
    // (Chrome 66, Safari 17, Firefox 115), and the polyfill was part of every first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod's global config (the contract's messages in packages/shared/src/zod.ts, then
          // src/app/zod-config.ts) must run right after zod itself and before any schema is
          // built; one chunk keeps that order.
          groups: [
            {
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zod-config\.ts$|[\\/]packages[\\/]shared[\\/]src[\\/]zod\.ts$/,
              priority: 2,
            },
            ...chunks.groups,
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    // Position in the root run (see /vitest.config.ts).
    sequence: { groupOrder: 3 },
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
});
