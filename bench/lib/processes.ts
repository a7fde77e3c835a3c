import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ENTRIES, repoRoot } from '../../test/support/processes.ts';

// Processes under test, started as production starts them: their own Node process, logs on
// stdout. Stdout goes straight to a file (as it would to a log collector), so reading a busy
// server's access lines costs the benchmark nothing and a full pipe never blocks the server.

// The repository root, CLIs run to completion and temporary directories: the tests' helpers.
export { repoRoot, runCli, tempDir } from '../../test/support/processes.ts';

export const ENTRIES = {
  ...APP_ENTRIES,
  bareProxy: path.join(repoRoot, 'bench/bare-proxy.ts'),
  start: path.join(repoRoot, 'scripts/start.ts'),
} as const;

export type Server = {
  name: string;
  url: string;
  pid: number;
  logFile: string;
  child: ChildProcess;
  /** CPU time (user + system) of the process and its live descendants, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `node <entry>` with PORT=0 and waits for its `{"msg":"listening","url":…}` line. */
export async function startServer(
  name: string,
  entry: string,
  options: { env: Record<string, string>; logFile: string; nodeArgs?: string[]; timeoutMs?: number },
): Promise<Server> {
  const fd = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', ...options.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let url: string | undefined;
  while (url === undefined) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited before listening:\n${tail(options.logFile)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not report listening:\n${tail(options.logFile)}`);
    }
    url = listeningUrl(readFileSync(options.logFile, 'utf8'));
    if (url === undefined) await sleep(25);
  }
  const pid = child.pid!;
  return {
    name,
    url,
    pid,
    logFile: options.logFile,
    child,
    cpuMs: () => treeCpuMs(pid),
    stop: () => stopChild(child),
  };
}

function listeningUrl(log: string): string | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('"listening"')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) return entry.url;
    } catch {
      // not JSON
    }
  }
  return undefined;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

// --- CPU time from /proc ---------------------------------------------------------------------

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

/** utime + stime of one process, in ms; 0 once it has gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** CPU of a process and its live descendants (cluster workers), in ms. */
export function treeCpuMs(pid: number): number {
  let sum = processCpuMs(pid);
  for (const child of childrenOf(pid)) sum += treeCpuMs(child);
  return sum;
}
