import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.ts';
import { tempDir } from './lib/processes.ts';
import { summariseProfiles } from './lib/profile.ts';
import { printTable } from './lib/report.ts';
import { login, requestFor, startBenchApi, startBenchBff } from './proxy.ts';

// Where the BFF spends its CPU on one kind of call: starts the API (demo data, limits lifted) and
// one BFF process with --cpu-prof, loads it with GET /api/v1/reviews or the send, and prints the
// BFF's self time by package, Node module and source file.
//
//   npx node bench/profile-bff.ts read|send [--connections 10] [--seconds 6] [--workers 1] [--keep <dir>]

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '6' },
    workers: { type: 'string', default: '1' },
    /** Keep the profiles in this folder (for a closer look, e.g. in Chrome's DevTools). */
    keep: { type: 'string' },
  },
});
const endpoint = positionals[0] === 'send' ? 'send' : 'read';
const temp = tempDir('rd-bench-profile-');
const profiles = values.keep ?? path.join(temp.dir, 'profiles');
mkdirSync(profiles, { recursive: true });
try {
  const { api, keyFile } = await startBenchApi(temp.dir);
  const bff = await startBenchBff(temp.dir, api.url, keyFile, {
    name: 'bff',
    workers: values.workers,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
  });
  const cookie = await login(bff.url);
  // A read carries only the session cookie (the dashboard's reads send no Origin); a send the
  // CSRF header and Origin too.
  const request =
    endpoint === 'read'
      ? requestFor('read', { cookie })
      : requestFor('send', { cookie, 'x-csrf': '1', origin: bff.url });
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
