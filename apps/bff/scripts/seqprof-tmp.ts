import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { runCli, startApp, tempDir } from '../../../test/support/processes.ts';

const temp = tempDir('seqprof-');
const apiDb = path.join(temp.dir, 'api.db');
const api = await startApp('api', {
  env: {
    DATABASE_PATH: apiDb,
    SEED_DEMO: '1',
    DEMO_KEY_FILE: path.join(temp.dir, 'k'),
    RATE_LIMIT_PER_MINUTE: '1000000',
  },
});
const out = await runCli(
  'api',
  ['key', 'create', '--business', 'demo', '--scopes', 'reviews:read', '--rate-limit', '100000000'],
  { env: { DATABASE_PATH: apiDb } },
);
const key = out.trim().split('\n').at(-1)!.trim();
const db = path.join(temp.dir, 'bff.db');
await runCli('bff', ['user', 'add', '--email', 'd@example.com', '--role', 'owner'], {
  env: { BFF_DATABASE_PATH: db },
  stdin: 'diag-password-123\n',
});
const bff = await startApp('bff', {
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof4', '--cpu-prof-interval=100'],
  env: { UPSTREAM_URL: api.url, UPSTREAM_API_KEY: key, BFF_DATABASE_PATH: db, WEB_DIST_DIR: temp.dir },
});
const login = await fetch(`${bff.url}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bff.url },
  body: JSON.stringify({ email: 'd@example.com', password: 'diag-password-123' }),
});
const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (url: string, headers: Record<string, string>) =>
  new Promise<void>((resolve) => {
    http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
  });
const bare = spawn(
  process.execPath,
  ['--cpu-prof', '--cpu-prof-dir=/tmp/prof5', '--cpu-prof-interval=100', 'apps/bff/scripts/bare-proxy.ts'],
  { env: { TARGET: api.url, API_KEY: key, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
let bareUrl = '';
for await (const line of createInterface({ input: bare.stdout! })) {
  bareUrl = JSON.parse(line).url;
  break;
}
const t0 = performance.now();
for (let i = 0; i < 3000; i++) await get(`${bff.url}/api/v1/reviews?page=1&limit=20`, { cookie });
const t1 = performance.now();
for (let i = 0; i < 3000; i++) await get(`${bareUrl}/api/v1/reviews?page=1&limit=20`, {});
const t2 = performance.now();
console.log(
  'bff avg µs',
  (((t1 - t0) * 1000) / 3000).toFixed(0),
  'bare avg µs',
  (((t2 - t1) * 1000) / 3000).toFixed(0),
);
bare.kill('SIGTERM');
await new Promise((r) => bare.once('exit', r));
await bff.stop();
await api.stop();
temp.cleanup();
agent.destroy();
