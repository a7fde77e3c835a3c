import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, chromium } from '@playwright/test';
import { chromiumLaunch, ensureChromium } from '../../e2e/support/chromium.ts';
import { ENTRIES, repoRoot, stopChild } from './processes.ts';

// The whole system as `npm start` runs it (scripts/start.ts: the API with its demo data, the
// BFF serving a production build of the dashboard, the demo users), on ports the OS picks and a
// data directory of its own; and the browser that drives it.

/** A production build of the dashboard into `outDir`, with hidden source maps for the breakdown. */
export async function buildDashboard(outDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--sourcemap',
      'hidden',
      '--logLevel',
      'warn',
    ],
    // A production build whoever starts it: under a test runner NODE_ENV is "test", and Vite
    // would bundle React's development build.
    {
      cwd: path.join(repoRoot, 'apps/web'),
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
  return performance.now() - started;
}

export type Stack = {
  bffUrl: string;
  apiUrl: string;
  dataDir: string;
  password: string;
  stop(): Promise<void>;
};

export async function startStack(options: {
  dataDir: string;
  distDir: string;
  password: string;
}): Promise<Stack> {
  const child: ChildProcess = spawn(process.execPath, [ENTRIES.start], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REVIEW_DESK_DATA_DIR: options.dataDir,
      DEMO_PASSWORD: options.password,
      PORT: '0',
      API_PORT: '0',
      WEB_DIST_DIR: options.distDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const urls = await new Promise<{ bffUrl: string; apiUrl: string }>((resolve, reject) => {
    let bffUrl: string | undefined;
    let apiUrl: string | undefined;
    const timer = setTimeout(
      () => reject(new Error(`npm start did not come up:\n${output.join('\n')}`)),
      // Its CLIs (users, the demo's Google connection) each start a Node process: slow on busy cores.
      180_000,
    );
    const onLine = (line: string) => {
      output.push(line);
      bffUrl ??= /Review Desk is running: (\S+)/.exec(line)?.[1];
      apiUrl ??= /Review Collection API \(embedded, demo data\): (\S+)/.exec(line)?.[1];
      if (bffUrl && apiUrl) {
        clearTimeout(timer);
        resolve({ bffUrl, apiUrl });
      }
    };
    // Kept draining for the life of the stack, so the launcher never blocks on a full pipe.
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${output.join('\n')}`));
    });
  });
  return {
    ...urls,
    dataDir: options.dataDir,
    password: options.password,
    stop: () => stopChild(child, 20_000),
  };
}

export async function launchBrowser(): Promise<Browser> {
  await ensureChromium();
  return chromium.launch(chromiumLaunch());
}

/** A signed-in session (cookies) for a demo user, to start fresh browser contexts with. */
export async function signIn(
  browser: Browser,
  stack: Stack,
  email = 'owner@example.com',
): Promise<Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>> {
  const context = await browser.newContext({ baseURL: stack.bffUrl });
  const response = await context.request.post('/auth/login', {
    headers: { 'x-csrf': '1', origin: stack.bffUrl },
    data: { email, password: stack.password },
  });
  if (response.status() !== 200) throw new Error(`sign-in failed: HTTP ${response.status()}`);
  const state = await context.storageState();
  await context.close();
  return state;
}
