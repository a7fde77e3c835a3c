import react from '@vitejs/plugin-react';
import type { Plugin, ProxyOptions } from 'vite';
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

/**
 * Everything the first paint of /reviews needs, in one chunk: the entry's static imports and the
 * Reviews page's (the landing page: `/` and every sign-in lead there). Left to itself the bundler
 * cuts that code into some thirty small files — one per set of pages sharing a module — and a
 * browser fetches at most six at a time from one HTTP/1.1 origin, so the first load arrived in
 * waves, each waiting on the last. The set is read from the module graph once it is built
 * (buildEnd), before chunking. A package's index that re-exports everything (Mantine's) is not
 * followed whole, only to the modules of the names imported from it: otherwise every component
 * the other pages use would move into the first load.
 */
const FIRST_LOAD_ROOTS = [
  /[\\/]src[\\/]main\.tsx$/,
  /[\\/]features[\\/]reviews[\\/]components[\\/]reviews-page\.tsx$/,
];
const BARRELS = /[\\/]node_modules[\\/](@mantine[\\/](core|hooks))[\\/]esm[\\/]index\.mjs$/;
// The send and analytics contracts: shared's client.ts imports them for its typed API client,
// which the dashboard does not use (it takes only readEnvelope). The tree-shaker drops them from
// the first load; this walk cannot tell, and would otherwise pull libphonenumber's metadata in.
const OTHER_PAGES_ONLY = /[\\/]packages[\\/]shared[\\/]src[\\/](send|phone|analytics)\.ts$/;
const firstLoad = new Set<string>();
function firstLoadGraph(): Plugin {
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c, i) => (i === 0 ? c : `-${c}`)).toLowerCase();
  return {
    name: 'review-desk:first-load-graph',
    apply: 'build',
    buildEnd() {
      firstLoad.clear();
      const stack = [...this.getModuleIds()].filter((id) => FIRST_LOAD_ROOTS.some((root) => root.test(id)));
      while (stack.length > 0) {
        const id = stack.pop()!;
        if (firstLoad.has(id) || OTHER_PAGES_ONLY.test(id)) continue;
        firstLoad.add(id);
        const info = this.getModuleInfo(id);
        for (const dep of info?.importedIds ?? []) {
          const barrel = BARRELS.exec(dep);
          if (!barrel) {
            stack.push(dep);
            continue;
          }
          // The names this module imports from the package, each to the module named after it.
          const names = new Set<string>();
          const from = new RegExp(
            `import\\s*\\{([^}]*)\\}\\s*from\\s*["']${barrel[1]!.replace('/', '\\/')}["']`,
            'g',
          );
          for (const match of (info?.code ?? '').matchAll(from))
            for (const part of match[1]!.split(','))
              names.add((part.trim().split(/\s+as\s+/)[0] ?? '').replace(/^type\s+/, ''));
          const exports = this.getModuleInfo(dep)?.importedIds ?? [];
          for (const name of names) {
            const file = exports.find((e) => e.endsWith(`/${name}.mjs`) || e.endsWith(`/${kebab(name)}.mjs`));
            if (file) stack.push(file);
          }
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), firstLoadGraph()],
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
          // zod's global config (the contract's messages in packages/shared/src/zod.ts, then
          // src/app/zod-config.ts) must run right after zod itself and before any schema is
          // built; one chunk keeps that order.
          groups: [
            {
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zod-config\.ts$|[\\/]packages[\\/]shared[\\/]src[\\/]zod\.ts$/,
              priority: 2,
            },
            {
              name: 'first-load',
              test: (id: string) => firstLoad.has(id),
              priority: 1,
              includeDependenciesRecursively: false,
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
