import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { repoRoot, tempDir } from './support/processes.ts';
import { waitFor } from './support/stack.ts';

// A test run that is stopped, killed or crashes leaves no app behind: an app the test support
// started stops once the process that started it is gone (test/support/exit-with-parent.ts).

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('an app the test support started stops when the process that started it is killed', async () => {
  const dir = tempDir('rd-orphan-');
  const processes = pathToFileURL(path.join(repoRoot, 'test/support/processes.ts')).href;
  // A stand-in for a test worker: it starts the API as the suites do, says its pid and address, and waits.
  const script = `
    const { startApp } = await import(${JSON.stringify(processes)});
    const app = await startApp('api', { env: { DATABASE_PATH: ${JSON.stringify(path.join(dir.dir, 'api.db'))} } });
    console.log(JSON.stringify({ pid: app.child.pid, url: app.url }));
    setInterval(() => {}, 60_000);
  `;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = await new Promise<string[]>((resolve, reject) => {
      createInterface({ input: parent.stdout! }).once('line', (l) => resolve([l]));
      parent.once('exit', (code) =>
        reject(new Error(`the starter exited (${code}) before the app listened`)),
      );
    });
    const { pid, url } = JSON.parse(line!) as { pid: number; url: string };
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    parent.kill('SIGKILL');
    await waitFor(() => !alive(pid), 15_000, 'the orphaned API to stop');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  } finally {
    parent.kill('SIGKILL');
    dir.cleanup();
  }
}, 60_000);
