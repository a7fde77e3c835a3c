import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { type RunningApp, runCli, startApp, tempDir } from '../../../test/support/processes.ts';

// How much the BFF adds on the demo data: GET /api/v1/reviews straight to the API, through a bare
// node:http keep-alive proxy, and through the BFF (session, validation, canonical query, logging,
// metrics). Prints p50/p90/p99 of sequential keep-alive requests, then throughput at 10 and 50
// connections. Usage: npx node apps/bff/scripts/measure-latency.ts [--quick] [--workers N]

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const workersArg = args.indexOf('--workers');
const workerCounts = workersArg === -1 ? [1, 2] : [Number(args[workersArg + 1])];
const PATH = '/api/v1/reviews?page=1&limit=20';
const here = path.dirname(fileURLToPath(import.meta.url));

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    request.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function startBare(target: string, apiKey: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(here, 'bare-proxy.ts')], {
    env: { TARGET: target, API_KEY: apiKey, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { msg: string; url: string };
    if (entry.msg === 'listening') return { url: entry.url, child };
  }
  throw new Error('bare proxy did not start');
}

async function login(bffUrl: string): Promise<string> {
  const response = await fetch(`${bffUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bffUrl },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-123' }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

const temp = tempDir('bff-latency-');
const keyFile = path.join(temp.dir, 'demo-api-key');
const apiDb = path.join(temp.dir, 'api.db');
let api: RunningApp | undefined;
const bffs: RunningApp[] = [];
let bare: { url: string; child: ChildProcess } | undefined;
try {
  api = await startApp('api', {
    env: { DATABASE_PATH: apiDb, SEED_DEMO: '1', DEMO_KEY_FILE: keyFile, RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  // A key of its own with a high per-key limit (the demo key's limit is meant for a person).
  const created = await runCli(
    'api',
    [
      'key',
      'create',
      '--business',
      'demo',
      '--scopes',
      'reviews:read,analytics:read,review_requests:write',
      '--rate-limit',
      '100000000',
    ],
    { env: { DATABASE_PATH: apiDb } },
  );
  const key = created.trim().split('\n').at(-1)!.trim();
  writeFileSync(keyFile, key);
  const bffDb = path.join(temp.dir, 'bff.db');
  await runCli('bff', ['user', 'add', '--email', 'bench@example.com', '--role', 'owner'], {
    env: { BFF_DATABASE_PATH: bffDb },
    stdin: 'bench-password-123\n',
  });
  bare = await startBare(api.url, key);
  const variants: { name: string; url: string; headers: Record<string, string> }[] = [
    { name: 'API direct', url: api.url, headers: { 'x-api-key': key } },
    { name: 'bare node:http proxy', url: bare.url, headers: {} },
  ];
  for (const workers of workerCounts) {
    const bff = await startApp('bff', {
      env: {
        UPSTREAM_URL: api.url,
        UPSTREAM_API_KEY_FILE: keyFile,
        BFF_DATABASE_PATH: bffDb,
        BFF_WORKERS: String(workers),
        // The BFF's access lines are read by this process (it started the BFF); LOG_LEVEL=warn
        // measures without that reading competing with the client.
        LOG_LEVEL: process.env.BFF_LOG_LEVEL ?? 'info',
        WEB_DIST_DIR: path.join(temp.dir, 'none'),
      },
    });
    bffs.push(bff);
    variants.push({
      name: `BFF (${workers} worker${workers > 1 ? 's' : ''})`,
      url: bff.url,
      headers: { cookie: await login(bff.url) },
    });
  }

  // Sequential keep-alive requests, interleaved so every variant sees the same machine state.
  const rounds = quick ? 400 : 2000;
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < 200; i++) for (const v of variants) await get(`${v.url}${PATH}`, v.headers);
  for (let i = 0; i < rounds; i++) {
    for (const [j, v] of variants.entries()) samples[j]!.push(await get(`${v.url}${PATH}`, v.headers));
    if (i % 10 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  const direct = [...samples[0]!].sort((a, b) => a - b);
  console.log(`\nGET ${PATH} on the demo data — ${rounds} sequential keep-alive requests per variant (ms)`);
  console.log('variant                     p50     p90     p99   added p50');
  for (const [j, v] of variants.entries()) {
    const sorted = [...samples[j]!].sort((a, b) => a - b);
    const added = percentile(sorted, 50) - percentile(direct, 50);
    console.log(
      `${v.name.padEnd(24)} ${[50, 90, 99].map((p) => percentile(sorted, p).toFixed(3).padStart(7)).join(' ')}   ${j === 0 ? '     —' : added.toFixed(3).padStart(6)}`,
    );
  }

  const duration = quick ? 4 : 10;
  console.log(`\nThroughput (autocannon, ${duration} s each, requests/s; latency p50 ms)`);
  console.log('variant                     10 conns   p50     50 conns   p50');
  for (const v of variants) {
    const cells: string[] = [];
    for (const connections of [10, 50]) {
      const result = await autocannon({ url: `${v.url}${PATH}`, connections, duration, headers: v.headers });
      if (result.non2xx > 0 || result.errors > 0)
        console.log(`  (${v.name}: ${result.non2xx} non-2xx, ${result.errors} errors)`);
      cells.push(
        String(Math.round(result.requests.average)).padStart(8),
        result.latency.p50.toFixed(1).padStart(6),
      );
    }
    console.log(`${v.name.padEnd(24)} ${cells.join('   ')}`);
  }
} finally {
  agent.destroy();
  for (const bff of bffs) await bff.stop();
  if (bare) {
    bare.child.kill('SIGTERM');
    await once(bare.child, 'exit');
  }
  await api?.stop();
  temp.cleanup();
}
