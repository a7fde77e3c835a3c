import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': toBff, '/auth': toBff, '/bff': toBff },
  },
  preview: { host: '127.0.0.1' },
  build: {
    target: 'es2022',
    // Budget: the first load of /reviews stays under 120 KB gzip; warn when any chunk grows big.
    // The analytics chunk (charts) is the big one, and lazy.
    chunkSizeWarningLimit: 500,
    // Read by scripts/first-load.ts to measure what a page loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod's global config (src/app/zod-config.ts) must run right after zod itself and
          // before any schema is built; one chunk keeps that order.
          groups: [
            {
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zod-config\.ts$/,
            },
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
