import http from 'node:http';
import autocannon, { type Request } from 'autocannon';
import { percentile } from './report.ts';

// Load from autocannon (npm), with every response's latency kept at full resolution: its own
// histogram rounds to whole milliseconds, too coarse for a proxy that adds tenths of one.

export type LoadSpec = {
  url: string;
  connections: number;
  seconds: number;
  request: Request;
  /** The status that counts as answered (default: any 2xx), e.g. 304 for a revalidation. */
  okStatus?: number;
};

export type LoadResult = {
  /** Requests answered with 2xx. */
  ok: number;
  /** Other answers and socket errors. */
  failed: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
};

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    requests: [spec.request],
    timeout: 10,
  });
  let unexpected = 0;
  const expected = (status: number) =>
    spec.okStatus === undefined ? status >= 200 && status < 300 : status === spec.okStatus;
  instance.on('response', (_client, status, _bytes, ms) => {
    if (expected(status)) latencies.push(ms);
    else unexpected++;
  });
  const result = await instance;
  const seconds = result.duration || (performance.now() - started) / 1000;
  const ok = latencies.length;
  return {
    ok,
    failed: unexpected + result.errors + result.timeouts,
    seconds,
    rps: ok / seconds,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
  };
}

/**
 * An open-loop paced run: request i is issued at start + i / rate whatever the answers do, over
 * a keep-alive pool of `connections` sockets. (autocannon's own rate option sends each second's
 * quota as a burst, which measures queueing again.) Latency runs from issue to the last byte.
 */
export async function runPaced(spec: LoadSpec & { rate: number }): Promise<LoadResult> {
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies: number[] = [];
  let failed = 0;
  let inFlight = 0;
  const total = Math.round(spec.rate * spec.seconds);
  const interval = 1000 / spec.rate;
  const issue = () => {
    const request = spec.request.setupRequest ? spec.request.setupRequest(spec.request, {}) : spec.request;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    inFlight++;
    const started = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method ?? 'GET',
        path: request.path,
        headers,
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          inFlight--;
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) latencies.push(performance.now() - started);
          else failed++;
        });
      },
    );
    req.on('error', () => {
      inFlight--;
      failed++;
    });
    req.end(body);
  };
  const start = performance.now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      while (issued < due) {
        issue();
        issued++;
      }
      if (issued < total) setTimeout(tick, Math.max(0, start + issued * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    ok: latencies.length,
    failed,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
  };
}
