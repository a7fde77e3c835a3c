import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.ts';
import { ENTRIES, type Server, startServer, tempDir } from './lib/processes.ts';
import { median, printTable, type Table } from './lib/report.ts';
import { login, requestFor, startBenchApi, startBenchBff, warmUp } from './proxy.ts';

// Builds of the BFF side by side against the bare proxy, for a decision that hangs on a few
// hundredths of the BFF/bare ratio on a shared machine: every build and the bare proxy run at
// once against one API, and each round measures them one after another (in a rotating order) at
// each load, so every ratio compares cells taken moments apart. Prints each build's median
// BFF/bare ratio over the rounds and its spread (min–max), and the median req/s.
//
//   npx node bench/proxy-ab.ts [--rounds 7] [--seconds 3] [--only read|send] [--connections 10,50] [--bff name=path/to/apps/bff/src/main.ts …]
//
// Without --bff it measures this checkout's BFF alone. A build is any main.ts that starts the BFF
// from the same environment (another checkout, or a copy with one change to compare). Another
// checkout needs node_modules of its own whose @review-desk/* entries lead to its own packages:
// through links into this checkout's node_modules, its packages/server and packages/shared would
// be this checkout's code, and only its apps/bff/src would differ.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '3' },
    bff: { type: 'string', multiple: true },
    only: { type: 'string' },
    /** Only these loads' connection counts (comma-separated). */
    connections: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const builds = (values.bff ?? [`this=${ENTRIES.bff}`]).map((spec) => {
  const eq = spec.indexOf('=');
  return { name: spec.slice(0, eq), entry: path.resolve(spec.slice(eq + 1)) };
});
const LOADS = (
  [
    { endpoint: 'read', connections: 10 },
    { endpoint: 'read', connections: 50 },
    { endpoint: 'send', connections: 10 },
    { endpoint: 'send', connections: 50 },
  ] as const
).filter(
  (load) =>
    (values.only === undefined || load.endpoint === values.only) &&
    (values.connections === undefined ||
      values.connections.split(',').map(Number).includes(load.connections)),
);

const temp = tempDir('rd-bench-ab-');
const servers: Server[] = [];
try {
  const { api, keyFile } = await startBenchApi(temp.dir);
  servers.push(api);
  const bare = await startServer('bare', ENTRIES.bareProxy, {
    logFile: path.join(temp.dir, 'bare.log'),
    env: { TARGET: api.url, API_KEY: readFileSync(keyFile, 'utf8').trim() },
  });
  servers.push(bare);
  const variants: { name: string; server: Server; headers: Record<string, string> }[] = [
    { name: 'bare', server: bare, headers: {} },
  ];
  for (const build of builds) {
    const server = await startBenchBff(temp.dir, api.url, keyFile, {
      name: build.name,
      workers: '1',
      entry: build.entry,
    });
    servers.push(server);
    variants.push({
      name: build.name,
      server,
      headers: { cookie: await login(server.url), 'x-csrf': '1', origin: server.url },
    });
  }
  await warmUp(variants);

  // rps[load][variant], cpu[load][variant] = one figure per round
  const rps = LOADS.map(() => variants.map(() => [] as number[]));
  const cpu = LOADS.map(() => variants.map(() => [] as number[]));
  for (let round = 0; round < rounds; round++) {
    for (const [l, load] of LOADS.entries()) {
      for (let k = 0; k < variants.length; k++) {
        const v = (k + round) % variants.length;
        const variant = variants[v]!;
        const cpuBefore = variant.server.cpuMs();
        const result = await runLoad({
          url: variant.server.url,
          connections: load.connections,
          seconds,
          request: requestFor(load.endpoint, variant.headers),
        });
        rps[l]![v]!.push(result.rps);
        cpu[l]![v]!.push(((variant.server.cpuMs() - cpuBefore) * 1000) / result.ok);
      }
    }
    process.stderr.write(`round ${round + 1} of ${rounds} done\n`);
  }

  const rows: Table['rows'] = [];
  for (const [l, load] of LOADS.entries()) {
    const bareRps = rps[l]![0]!;
    for (const [v, variant] of variants.entries()) {
      const own = rps[l]![v]!;
      const ratios = own.map((value, round) => value / (bareRps[round] as number));
      rows.push([
        `${load.endpoint === 'read' ? 'GET reviews' : 'POST send'}, ${load.connections} conns`,
        variant.name,
        Math.round(median(own)),
        `${Math.round(Math.min(...own))}–${Math.round(Math.max(...own))}`,
        v === 0 ? null : median(ratios).toFixed(2),
        v === 0 ? null : `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
        Math.round(median(cpu[l]![v]!)),
        `${Math.round(Math.min(...cpu[l]![v]!))}–${Math.round(Math.max(...cpu[l]![v]!))}`,
      ]);
    }
  }
  printTable({
    title: `BFF builds against the bare proxy: ${rounds} rounds, ${seconds} s per cell, interleaved`,
    note: 'req/s = 2xx answers per second; BFF/bare is taken within each round, then the median and range over rounds; CPU = user + system time of the proxy process per answered request.',
    columns: [
      'load',
      'target',
      'median req/s',
      'range',
      'BFF/bare median',
      'BFF/bare range',
      'CPU µs/req median',
      'CPU range',
    ],
    rows,
  });
} finally {
  for (const server of servers.reverse()) await server.stop();
  temp.cleanup();
}
