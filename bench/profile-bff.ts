import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { runLoad } from './lib/load.ts';
import { ENTRIES, runNode, startServer, tempDir } from './lib/processes.ts';
import { summariseProfiles } from './lib/profile.ts';
import { printTable } from './lib/report.ts';

// Where the BFF spends its CPU on one kind of call: starts the API (demo data, limits lifted) and
// one BFF process with --cpu-prof, loads it with GET /api/v1/reviews or the send, and prints the
// BFF's self time by package, Node module and source file.
//
//   npx node bench/profile-bff.ts read|send [--connections 10] [--seconds 6] [--workers 1]

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '6' },
    workers: { type: 'string', default: '1' },
  },
});
const endpoint = positionals[0] === 'send' ? 'send' : 'read';
const temp = tempDir('rd-bench-profile-');
const profiles = path.join(temp.dir, 'profiles');
mkdirSync(profiles);
try {
  const keyFile = path.join(temp.dir, 'api-key');
  const api = await startServer('api', ENTRIES.api, {
    logFile: path.join(temp.dir, 'api.log'),
    env: {
      DATABASE_PATH: path.join(temp.dir, 'api.db'),
      SEED_DEMO: '1',
      DEMO_KEY_FILE: keyFile,
      FREQUENCY_CAP_DAYS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      MONTHLY_SEND_ALLOWANCE: '0',
    },
  });
  const bffDb = path.join(temp.dir, 'bff.db');
  await runNode(ENTRIES.bffCli, ['user', 'add', '--email', 'bench@example.com', '--role', 'owner'], {
    env: { BFF_DATABASE_PATH: bffDb },
    stdin: 'bench-password-123\n',
  });
  const bff = await startServer('bff', ENTRIES.bff, {
    logFile: path.join(temp.dir, 'bff.log'),
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
    env: {
      UPSTREAM_URL: api.url,
      UPSTREAM_API_KEY_FILE: keyFile,
      BFF_DATABASE_PATH: bffDb,
      BFF_WORKERS: values.workers,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(temp.dir, 'no-dashboard'),
    },
  });
  const login = await fetch(`${bff.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bff.url },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-123' }),
  });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const request: Request =
    endpoint === 'read'
      ? { method: 'GET', path: '/api/v1/reviews?page=1&limit=20', headers: { cookie } }
      : {
          method: 'POST',
          path: '/api/v1/requests/send',
          headers: { cookie, 'x-csrf': '1', origin: bff.url, 'content-type': 'application/json' },
          body: JSON.stringify({
            customerName: 'Bench Customer',
            customerPhone: '+14155551234',
            channel: 'sms',
          }),
          setupRequest: (r) => ({ ...r, headers: { ...r.headers, 'idempotency-key': randomUUID() } }),
        };
  const connections = Number(values.connections);
  await runLoad({ url: bff.url, connections, seconds: 2, request });
  const before = bff.cpuMs();
  const result = await runLoad({ url: bff.url, connections, seconds: Number(values.seconds), request });
  const cpuUs = ((bff.cpuMs() - before) * 1000) / result.ok;
  await bff.stop();
  await api.stop();
  console.log(
    `${endpoint === 'read' ? 'GET /api/v1/reviews' : 'POST /api/v1/requests/send'} through the BFF, ${connections} connections: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, ${Math.round(cpuUs)} µs BFF CPU per request (warm-up included in the profile below)`,
  );
  printTable(summariseProfiles(profiles, 'BFF self time', 30));
} finally {
  temp.cleanup();
}
