import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { chromiumLaunch, ensureChromium } from '../../e2e/support/chromium.ts';
import type { Stack } from './stack.ts';

// Lighthouse (the exact version pinned in package.json) against the dashboard in the pinned
// Chromium, with its mobile defaults: a phone-sized screen, simulated slow 4G (150 ms round trip,
// 1.6 Mbit/s) and a CPU 4× slower than this one. Lighthouse drives the browser over a DevTools
// port; Playwright opens that browser with a profile of its own and signs in through it, so the
// session cookie is in the browser's own jar, as for a person (Lighthouse clears caches and
// service workers between runs, never cookies).

export type LighthouseFigures = {
  path: string;
  /** Performance score, 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Bytes transferred (every response, compressed as sent). */
  bytes: number;
  /** What the largest paint was: the element as Lighthouse labels it. */
  lcpElement: string;
  /** Lighthouse's measure of this machine's CPU while it ran (higher: faster). */
  benchmarkIndex: number;
  /** One-minute load average when the run started and when it ended. */
  load: [number, number];
  warnings: string[];
};

export type LighthouseBrowser = {
  /** Runs Lighthouse on one page of the stack, signed in or not. */
  audit(pagePath: string, signedIn: boolean): Promise<LighthouseFigures>;
  close(): Promise<void>;
};

/** Reads the element out of Lighthouse's "largest-contentful-paint-element" audit. */
function lcpElementOf(details: unknown): string {
  type Node = { type?: string; nodeLabel?: string; snippet?: string };
  const walk = (value: unknown): Node | undefined => {
    if (!value || typeof value !== 'object') return undefined;
    if ((value as Node).type === 'node') return value as Node;
    for (const child of Object.values(value)) {
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  const node = walk(details);
  return node ? `${node.snippet ?? ''} ${node.nodeLabel ?? ''}`.trim() : '';
}

/**
 * A browser for Lighthouse, signed in as `email` on demand. `saveTo`: a folder where each run's
 * full report (JSON) is written, to look into what a figure is made of.
 */
export async function openLighthouseBrowser(
  stack: Stack,
  options: { email?: string; saveTo?: string } = {},
): Promise<LighthouseBrowser> {
  const email = options.email ?? 'owner@example.com';
  let saved = 0;
  await ensureChromium();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'rd-lighthouse-'));
  const launch = chromiumLaunch();
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    ...launch,
    // Port 0: the browser picks a free one and writes it into the profile (DevToolsActivePort).
    args: [...launch.args, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1'],
    baseURL: stack.bffUrl,
  });
  const port = Number(readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
  let signedInAs: boolean | undefined;

  const session = async (signedIn: boolean) => {
    if (signedInAs === signedIn) return;
    await context.clearCookies();
    if (signedIn) {
      // The context's request client shares the browser's cookie jar.
      const response = await context.request.post('/auth/login', {
        headers: { 'x-csrf': '1', origin: stack.bffUrl },
        data: { email, password: stack.password },
      });
      if (response.status() !== 200) throw new Error(`sign-in failed: HTTP ${response.status()}`);
    }
    signedInAs = signedIn;
  };

  return {
    async audit(pagePath, signedIn) {
      await session(signedIn);
      const url = new URL(pagePath, stack.bffUrl).href;
      const loadBefore = os.loadavg()[0]!;
      const result = await lighthouse(url, {
        port,
        hostname: '127.0.0.1',
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance'],
      });
      const loadAfter = os.loadavg()[0]!;
      if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
      const { lhr } = result;
      if (options.saveTo)
        writeFileSync(
          path.join(options.saveTo, `${++saved}-${pagePath.replace(/\W+/g, '_')}.json`),
          JSON.stringify(lhr),
        );
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${pagePath}: ${lhr.runtimeError.message}`);
      // A page that sent the browser elsewhere (to the sign-in page) was not the page measured.
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (landed !== new URL(url).pathname) throw new Error(`Lighthouse on ${pagePath} ended on ${landed}`);
      const numeric = (id: string) => {
        const value = lhr.audits[id]?.numericValue;
        if (value === undefined) throw new Error(`Lighthouse on ${pagePath}: no ${id}`);
        return value;
      };
      return {
        path: pagePath,
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcpMs: numeric('first-contentful-paint'),
        lcpMs: numeric('largest-contentful-paint'),
        tbtMs: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        speedIndexMs: numeric('speed-index'),
        bytes: numeric('total-byte-weight'),
        lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
        benchmarkIndex: lhr.environment.benchmarkIndex,
        load: [loadBefore, loadAfter],
        warnings: lhr.runWarnings,
      };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
