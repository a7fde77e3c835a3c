import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { tempDir } from '../../../test/support/processes.ts';
import { buildBff, type InProcessBff, type Listener, serve } from './support/in-process.ts';

// Nobody, signed in or not, can grow the BFF's memory by asking for files that do not exist: the
// build is listed once at start and only its files are ever compressed and kept. The BFF runs in
// this process so its heap can be measured after a forced collection.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const NAMES = 20_000;
const NAME_CHARS = 2_000;
/** Far below what keeping anything per name costs (each name alone is 2 KB): about 40 MB. */
const BOUND_BYTES = 6 * 1024 * 1024;

let upstream: FakeUpstream;
let bff: InProcessBff;
let listener: Listener;
const dist = tempDir('bff-flood-dist-');

beforeAll(async () => {
  mkdirSync(path.join(dist.dir, 'assets'));
  writeFileSync(path.join(dist.dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(dist.dir, 'assets', 'index-Ab12Cd.js'), `console.log(${'1'.repeat(4000)});`);
  upstream = await startFakeUpstream();
  bff = await buildBff(upstream.url, { WEB_DIST_DIR: dist.dir });
  listener = await serve(bff.app);
});

afterAll(async () => {
  await listener?.close();
  await bff?.cleanup();
  await upstream?.close();
  dist.cleanup();
});

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** GETs `count` distinct missing asset names with Accept-Encoding: gzip; returns the statuses seen. */
async function flood(count: number): Promise<Set<number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const { port } = new URL(listener.url);
  const statuses = new Set<number>();
  let next = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const name = randomBytes((NAME_CHARS * 3) / 4).toString('base64url');
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `/assets/${name}.js`,
          agent,
          headers: { 'accept-encoding': 'gzip' },
        },
        (res) => {
          statuses.add(res.statusCode ?? 0);
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < count) await one();
    }),
  );
  agent.destroy();
  return statuses;
}

describe('a flood of missing asset names', () => {
  it('answers each with the 404 and leaves the heap where it was', async () => {
    // Warm-up: the JIT, Express, the metrics' label sets, the assets' compression at start.
    await flood(1_000);
    const before = await heapUsed();
    const statuses = await flood(NAMES);
    const after = await heapUsed();
    expect([...statuses]).toEqual([404]);
    expect(after - before, `heap grew ${((after - before) / 1048576).toFixed(1)} MB`).toBeLessThan(
      BOUND_BYTES,
    );
    // The real asset is still served, compressed.
    const asset = await fetch(`${listener.url}/assets/index-Ab12Cd.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect([asset.status, asset.headers.get('content-encoding')]).toEqual([200, 'gzip']);
  }, 120_000);
});
