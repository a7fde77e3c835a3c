import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../../test/support/processes.ts';
import { DashboardClient } from './support/client.ts';

// `npm start` (scripts/start.ts): the API with demo data, the BFF in front of it, demo users;
// stops both on SIGTERM, and stops everything when one of them dies.

const data = tempDir('review-desk-start-');
const PASSWORD = 'demo-password-for-tests';

type Started = { child: ChildProcess; url: string; output: string[] };

// Every `npm start` of this file, so a failed test still stops what it started.
const started = new Set<ChildProcess>();
// The whole system starts (demo data, three users): more than a single app on a loaded machine.
const START_TIMEOUT_MS = 45_000;

function spawnStart(extra: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REVIEW_DESK_DATA_DIR: data.dir,
      PORT: '0',
      API_PORT: '0',
      DEMO_PASSWORD: PASSWORD,
      // A build-less web dir keeps the test fast: the BFF serves its placeholder.
      WEB_DIST_DIR: path.join(data.dir, 'no-web'),
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  return child;
}

/** An `npm start` that must refuse: everything it wrote, and its exit code. */
async function refusedStart(
  extra: Record<string, string>,
): Promise<{ code: number | null; lines: string[] }> {
  const child = spawnStart(extra);
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, lines: lines.filter((line) => line.trim() !== '') };
}

/** Holds a free port, as another program would. */
async function holdPort(): Promise<{ port: number; close(): void }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

async function start(extra: Record<string, string> = {}): Promise<Started> {
  const child = spawnStart(extra);
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not come up:\n${output.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    // The banner ends with "Press Ctrl-C to stop.": wait for all of it (the demo users come after
    // the URL), not just its first line.
    let running: string | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      running ??= /Review Desk is running: (http\S+)/.exec(line)?.[1];
      if (running && line.includes('Press Ctrl-C to stop')) {
        clearTimeout(timer);
        resolve(running);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${output.join('\n')}`));
    });
  });
  return { child, url, output };
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Children are reaped as they exit; give a loaded machine a moment before calling one alive. */
async function gone(pids: number[]): Promise<number[]> {
  const until = Date.now() + 3_000;
  // poll: a look again at the processes
  while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}

afterEach(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  started.clear();
});
afterAll(() => data.cleanup());

describe('npm start', () => {
  const timeout = START_TIMEOUT_MS + 15_000;

  it('runs the whole system with demo users, and stops both apps on SIGTERM', { timeout }, async () => {
    const first = await start();
    const children = childPids(first.child.pid!);
    const log = () => first.output.join('\n');
    expect(children.length, log()).toBeGreaterThanOrEqual(2);
    expect(first.output.join('\n')).toMatch(/Demo users \(password from DEMO_PASSWORD\)/);
    expect(first.output.join('\n')).not.toContain(PASSWORD);
    expect(first.output.join('\n')).toMatch(
      /Dev outbox on: messages are kept, not delivered; see them at http/,
    );

    for (const email of ['owner@example.com', 'manager@example.com', 'staff@example.com']) {
      const client = new DashboardClient(first.url);
      const login = await client.login(email, PASSWORD);
      expect(login.status, `${email}: ${login.text}\n${log()}`).toBe(200);
      expect(login.json.data.business).toEqual({ name: 'Harbour Street Coffee' });
    }
    const owner = new DashboardClient(first.url);
    await owner.login('owner@example.com', PASSWORD);
    const reviews = await owner.get('/api/v1/reviews?limit=3');
    expect(reviews.status, reviews.text).toBe(200);
    expect(reviews.json.data.total).toBeGreaterThan(0);
    const page = await owner.get('/', { accept: 'text/html' });
    expect(page.status).toBe(200);

    first.child.kill('SIGTERM');
    const [code] = await once(first.child, 'exit');
    expect(code, log()).toBe(0);
    expect(await gone(children), log()).toEqual([]);
  });

  it('keeps existing users on the next start, and stops everything when an app dies', {
    timeout,
  }, async () => {
    const second = await start();
    expect(second.output.join('\n')).not.toMatch(/Demo users/);
    const login = await new DashboardClient(second.url).login('owner@example.com', PASSWORD);
    expect(login.status).toBe(200);

    const children = childPids(second.child.pid!);
    const api = children.find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('apps/api/src/main.ts'),
    )!;
    expect(api).toBeDefined();
    process.kill(api, 'SIGKILL');
    const [code] = await once(second.child, 'exit');
    expect(code, second.output.join('\n')).toBe(1);
    expect(second.output.join('\n')).toMatch(/api stopped unexpectedly/);
    expect(await gone(children), second.output.join('\n')).toEqual([]);
  });

  it('with ports left to it, a taken port moves on to the next free one, the BFF reaches the API’s real URL, and the printed URL is served; no dev outbox in production', {
    timeout,
  }, async () => {
    // `<n>+` is the form the defaults take (8080+, 4000+): ports this test holds stand for them.
    const bffHeld = await holdPort();
    const apiHeld = await holdPort();
    try {
      const run = await start({
        PORT: `${bffHeld.port}+`,
        API_PORT: `${apiHeld.port}+`,
        NODE_ENV: 'production',
      });
      const log = run.output.join('\n');
      expect(Number(new URL(run.url).port), log).toBeGreaterThan(bffHeld.port);
      const apiUrl = /Review Collection API \(embedded, demo data\): (http\S+)/.exec(log)?.[1];
      expect(Number(new URL(apiUrl!).port), log).toBeGreaterThan(apiHeld.port);
      expect(log).toContain(`port ${bffHeld.port} is in use; serving on ${new URL(run.url).port}`);
      const owner = new DashboardClient(run.url);
      expect((await owner.login('owner@example.com', PASSWORD)).status).toBe(200);
      const reviews = await owner.get('/api/v1/reviews?limit=1');
      expect(reviews.status, reviews.text).toBe(200);
      expect(log).toContain('Dev outbox off');
      expect((await fetch(`${apiUrl}/dev/outbox.json`)).status).toBe(404);
    } finally {
      bffHeld.close();
      apiHeld.close();
    }
  });

  it('a taken port chosen with PORT or API_PORT stops it with one plain line naming the variable', {
    timeout,
  }, async () => {
    const held = await holdPort();
    try {
      for (const variable of ['PORT', 'API_PORT']) {
        const { code, lines } = await refusedStart({ [variable]: String(held.port) });
        expect(code).toBe(1);
        expect(lines).toEqual([
          `Review Desk could not start: Port ${held.port} is in use (${variable}=${held.port}): stop what uses it, or set ${variable} to another port.`,
        ]);
      }
    } finally {
      held.close();
    }
  });

  it('refuses the dev outbox in production with one plain line', { timeout }, async () => {
    const { code, lines } = await refusedStart({ DEV_OUTBOX: '1', NODE_ENV: 'production' });
    expect(code).toBe(1);
    // (This test's dashboard is not built: the notice about its placeholder comes first.)
    expect(lines.filter((line) => !line.startsWith('The dashboard is not built'))).toEqual([
      'Review Desk could not start: Invalid configuration: DEV_OUTBOX must be off when NODE_ENV=production (it lists customers’ contacts)',
    ]);
  });

  it('stops both apps when its terminal goes away (SIGHUP)', { timeout }, async () => {
    const third = await start();
    const children = childPids(third.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2);
    third.child.kill('SIGHUP');
    const [code] = await once(third.child, 'exit');
    expect(code, third.output.join('\n')).toBe(0);
    expect(await gone(children), third.output.join('\n')).toEqual([]);
  });
});
