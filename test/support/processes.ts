import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Starts the apps as real processes, the way production runs them, for integration tests,
// browser tests and benchmarks. Each app logs one JSON line `{"msg":"listening","url":…}` on
// stdout once it accepts connections (PORT=0 picks a free port); that line is the ready signal.

/**
 * How long a start may take before the test fails: a ceiling, not a wait. Generous, because a
 * loaded machine (several suites on two cores) can take tens of seconds to start a process.
 */
const READY_TIMEOUT_MS = 60_000;

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Stops an app once the process that started it is gone (exit-with-parent.ts). */
const EXIT_WITH_PARENT = pathToFileURL(path.join(repoRoot, 'test/support/exit-with-parent.ts')).href;

export const APP_ENTRIES = {
  api: path.join(repoRoot, 'apps/api/src/main.ts'),
  bff: path.join(repoRoot, 'apps/bff/src/main.ts'),
} as const;

export type RunningApp = {
  url: string;
  child: ChildProcess;
  /** Every stdout and stderr line so far (for assertions on logs, e.g. secret scans). */
  logs: string[];
  /** SIGTERM (or the given signal), then SIGKILL after a grace period; resolves on exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
};

export type StartOptions = {
  env?: Record<string, string | undefined>;
  readyTimeoutMs?: number;
  /** Extra arguments for node before the entry file (e.g. --cpu-prof). */
  nodeArgs?: string[];
};

export async function startApp(
  app: keyof typeof APP_ENTRIES,
  options: StartOptions = {},
): Promise<RunningApp> {
  const nodeArgs = ['--import', EXIT_WITH_PARENT, ...(options.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, APP_ENTRIES[app]], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      // Any hour, so a run at night sends at once; a test about sending hours sets them.
      QUIET_HOURS: 'off',
      ...options.env,
    },
    // The IPC channel closes when this process ends, however it ends: the app then stops too.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logs: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `${app} did not report listening within ${options.readyTimeoutMs ?? READY_TIMEOUT_MS} ms:\n${logs.join('\n')}`,
          ),
        ),
      options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line);
      if (!line.includes('"listening"')) return;
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      } catch {
        // not a JSON line: keep waiting
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited (${code ?? signal}) before listening:\n${logs.join('\n')}`));
    });
  });

  return {
    url,
    child,
    logs,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs an app's CLI to completion; resolves with stdout, rejects with stderr on a non-zero exit. */
export async function runCli(
  app: keyof typeof APP_ENTRIES,
  args: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string } = {},
): Promise<string> {
  const entry = APP_ENTRIES[app].replace(/main\.ts$/, 'cli.ts');
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? '');
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${app} cli ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(prefix = 'review-desk-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
