import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { newApiKey } from '../test/support/stack.ts';
import { benchArgs } from './lib/args.ts';
import { ENTRIES, repoRoot, startServer, tempDir } from './lib/processes.ts';

// What a flood of made-up asset names does to the BFF's memory: requests for unique, long,
// missing names under /assets with Accept-Encoding: gzip (each once cached a compression promise
// for ever), then the heap before and after. Target: within 10 MB.
//
//   npx node bench/static-flood.ts [--requests 200000] [--chars 8000] [--connections 32]
//       start a BFF (the production entry, the web build if there is one) and read its heap after
//       a forced collection (a preloaded probe, bench/lib/heap-probe.ts);
//   npx node bench/static-flood.ts --url http://127.0.0.1:8080 [...]
//       flood a running BFF (npm start) and read nodejs_heap_size_used_bytes from its /metrics
//       (no forced collection there: a rougher figure).

const args = benchArgs({ requests: 200_000, chars: 8000, connections: 32 }, ['url']);
const { requests: REQUESTS, chars: CHARS, connections: CONNECTIONS } = args;
const TARGET_BYTES = 10 * 1024 * 1024;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function flood(
  base: string,
  count: number,
): Promise<{ statuses: Map<number, number>; seconds: number }> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses = new Map<number, number>();
  const started = performance.now();
  let issued = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const name = randomBytes(Math.ceil((CHARS * 3) / 4))
        .toString('base64url')
        .slice(0, CHARS);
      const req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: `/assets/${name}.js`,
          agent,
          headers: { 'accept-encoding': 'gzip, br' },
        },
        (res) => {
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued++ < count) await one();
    }),
  );
  agent.destroy();
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

/** A heap reading: the probe's line after SIGUSR2, or /metrics of a running BFF. */
type Reader = () => Promise<number>;

function probeReader(logFile: string, pid: number): Reader {
  return async () => {
    const seen = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"msg":"heap"')).length;
    process.kill(pid, 'SIGUSR2');
    for (let i = 0; i < 200; i++) {
      await sleep(25);
      const lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"msg":"heap"'));
      if (lines.length > seen) return (JSON.parse(lines.at(-1)!) as { heapUsed: number }).heapUsed;
    }
    throw new Error('the heap probe did not answer');
  };
}

function metricsReader(base: string): Reader {
  return async () => {
    await sleep(2_000); // let the server settle; its collector runs when it will
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
    if (!line) throw new Error('no nodejs_heap_size_used_bytes in /metrics');
    return Number(line.split(' ').at(-1));
  };
}

const temp = tempDir('rd-bench-flood-');
let stop = async () => {};
try {
  let base: string;
  let heap: Reader;
  let how: string;
  if (args.url) {
    base = args.url.replace(/\/+$/, '');
    heap = metricsReader(base);
    how = 'nodejs_heap_size_used_bytes from /metrics (no forced collection)';
  } else {
    let dist = path.join(repoRoot, 'apps/web/dist');
    if (!existsSync(path.join(dist, 'index.html'))) {
      dist = path.join(temp.dir, 'dist');
      mkdirSync(path.join(dist, 'assets'), { recursive: true });
      writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Review Desk</title>');
      writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd.js'), `console.log(${'1'.repeat(20_000)});`);
    }
    const logFile = path.join(temp.dir, 'bff.log');
    const bff = await startServer('bff', ENTRIES.bff, {
      logFile,
      nodeArgs: ['--expose-gc', '--import', path.join(repoRoot, 'bench/lib/heap-probe.ts')],
      env: {
        UPSTREAM_URL: 'http://127.0.0.1:9',
        UPSTREAM_API_KEY: newApiKey(),
        BFF_DATABASE_PATH: path.join(temp.dir, 'bff.db'),
        WEB_DIST_DIR: dist,
        LOG_LEVEL: process.env.FLOOD_LOG_LEVEL ?? 'info',
      },
    });
    stop = () => bff.stop();
    base = bff.url;
    heap = probeReader(logFile, bff.pid);
    how = `heapUsed after a forced collection in the BFF (${path.relative(repoRoot, dist) || dist} served)`;
  }
  await flood(base, 5_000); // warm-up
  const before = await heap();
  const { statuses, seconds } = await flood(base, REQUESTS);
  const after = await heap();
  const answered = [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
  console.log(
    `${REQUESTS} requests for unique missing /assets/<${CHARS} characters>.js with Accept-Encoding: gzip, br, ${CONNECTIONS} connections: ${answered} in ${seconds.toFixed(1)} s (${Math.round(REQUESTS / seconds)} req/s)`,
  );
  console.log(
    `heap before ${mb(before)}, after ${mb(after)}: ${after >= before ? '+' : ''}${mb(after - before)} — ${how}`,
  );
  const met = Math.abs(after - before) <= TARGET_BYTES;
  console.log(`target: within ${mb(TARGET_BYTES)} — ${met ? 'met' : 'MISSED'}`);
  if (!met) process.exitCode = 1;
} finally {
  await stop();
  temp.cleanup();
}
