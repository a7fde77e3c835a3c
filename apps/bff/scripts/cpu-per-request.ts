import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runCli, startApp, tempDir } from '../../../test/support/processes.ts';

// CPU time each proxy spends per request (from /proc, so a busy machine skews it less than
// wall-clock figures): the BFF versus a bare node:http proxy, both in front of an in-process
// upstream answering a fixed reviews page. STRACE=1 counts the BFF's system calls too.
// Usage: npx node apps/bff/scripts/cpu-per-request.ts [requests] [--prof DIR]  (--prof: V8 CPU profile)

const total = Number(process.argv[2] ?? 20_000);
const profIndex = process.argv.indexOf('--prof');
const profileDir = profIndex === -1 ? undefined : process.argv[profIndex + 1];
const here = path.dirname(fileURLToPath(import.meta.url));
const body = JSON.stringify({
  success: true,
  data: {
    page: 1,
    limit: 20,
    total: 500,
    reviews: Array.from({ length: 20 }, (_, i) => ({
      id: `rev_${i}`,
      rating: 4,
      response_status: 'pending',
      author_name: 'A. Customer',
      text: 'Lovely coffee and friendly staff. '.repeat(6),
      review_date: '2025-01-01T00:00:00.000Z',
      response_text: null,
      platform: 'direct',
    })),
  },
});
const upstream = http.createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ms (USER_HZ = 100)
};
const childrenCpuMs = (pid: number): number => {
  let sum = cpuMs(pid);
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean))
      sum += childrenCpuMs(Number(child));
  } catch {}
  return sum;
};

async function spawnBare(): Promise<ChildProcess & { url: string }> {
  const child = spawn(process.execPath, [path.join(here, 'bare-proxy.ts')], {
    env: { TARGET: upstreamUrl, API_KEY: 'k', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { msg: string; url: string };
    if (entry.msg === 'listening') return Object.assign(child, { url: entry.url });
  }
  throw new Error('bare proxy did not start');
}

const temp = tempDir('bff-cpu-');
const db = path.join(temp.dir, 'bff.db');
await runCli('bff', ['user', 'add', '--email', 'p@example.com', '--role', 'owner'], {
  env: { BFF_DATABASE_PATH: db },
  stdin: 'profile-password-1\n',
});
const bare = await spawnBare();
const bff = await startApp('bff', {
  nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  env: {
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEY: 'rd_live_profile',
    BFF_DATABASE_PATH: db,
    LOG_LEVEL: process.env.BFF_LOG ?? 'info',
    WEB_DIST_DIR: temp.dir,
    BFF_WORKERS: process.env.BFF_WORKERS ?? '1',
  },
});
const login = await fetch(`${bff.url}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bff.url },
  body: JSON.stringify({ email: 'p@example.com', password: 'profile-password-1' }),
});
const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
for (const round of [1, 2]) {
  for (const [name, url, headers, pid] of [
    ['bare proxy', bare.url, {}, bare.pid!],
    ['BFF', bff.url, { cookie }, bff.child.pid!],
  ] as const) {
    const tracer =
      process.env.STRACE && round === 2
        ? spawn(
            'strace',
            ['-c', '-f', '-p', String(pid), '-o', `/tmp/strace-${name.replace(' ', '-')}.txt`],
            { stdio: 'ignore' },
          )
        : null;
    if (tracer) await new Promise((r) => setTimeout(r, 1000));
    const before = childrenCpuMs(pid);
    const started = Date.now();
    const result = await autocannon({
      url: `${url}/api/v1/reviews?page=1&limit=20`,
      connections: 10,
      amount: total,
      headers,
    } as never);
    const cpu = childrenCpuMs(pid) - before;
    if (tracer) {
      tracer.kill('SIGINT');
      await new Promise((r) => tracer.once('exit', r));
    }
    console.log(
      `round ${round} ${name.padEnd(10)} ${((cpu * 1000) / total).toFixed(1).padStart(6)} µs CPU/request  ${Math.round((total * 1000) / (Date.now() - started))} req/s  non2xx ${(result as { non2xx: number }).non2xx}`,
    );
  }
}
await bff.stop();
bare.kill('SIGTERM');
upstream.close();
temp.cleanup();
