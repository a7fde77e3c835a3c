import cluster from 'node:cluster';
import { createHttpMetrics, DURATION_BUCKETS } from '@review-desk/server/metrics';
import { Counter, Histogram } from 'prom-client';

// Prometheus metrics: the shared HTTP and process metrics (packages/server/metrics.ts) and the
// BFF's own. Labels are bounded: a route *name* (never a raw path), the method, the status, the
// endpoint. Under node:cluster each worker keeps its own registry and /metrics asks the primary,
// which aggregates every worker's (see main.ts).

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const http = createHttpMetrics('bff');
  const { registry } = http;
  const upstreamDuration = new Histogram({
    name: 'bff_upstream_request_duration_seconds',
    help: 'Upstream exchanges (request to last body byte), by endpoint and upstream status.',
    labelNames: ['endpoint', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstreamErrors = new Counter({
    name: 'bff_upstream_errors_total',
    help: 'Upstream failures: unreachable, timeout, reset, unreadable answer.',
    labelNames: ['endpoint', 'kind'] as const,
    registers: [registry],
  });
  const sends = new Counter({
    name: 'bff_sends_total',
    help: 'Send attempts by journal outcome (replayed and conflicting keys included).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const logins = new Counter({
    name: 'bff_logins_total',
    help: 'Login attempts by result.',
    labelNames: ['result'] as const,
    registers: [registry],
  });

  // Label lookups hash their arguments; the few combinations that exist are cached as children.
  const upstreamChildren = new Map<string, (v: number) => void>();

  return {
    registry,
    observeRequest: http.observeRequest,
    observeUpstream(endpoint: string, status: number, seconds: number) {
      const key = `${endpoint} ${status}`;
      let observe = upstreamChildren.get(key);
      if (!observe) {
        const child = upstreamDuration.labels({ endpoint, status: String(status) });
        observe = (v: number) => child.observe(v);
        upstreamChildren.set(key, observe);
      }
      observe(seconds);
    },
    upstreamDuration,
    upstreamErrors,
    sends,
    logins,
  };
}

/** Text exposition of this process's metrics, or of every worker's when clustered. */
export async function metricsText(metrics: Metrics): Promise<{ type: string; body: string }> {
  if (cluster.isWorker && process.send) {
    const body = await askPrimaryForMetrics();
    return { type: metrics.registry.contentType, body };
  }
  return { type: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

export const METRICS_REQUEST = 'review-desk:metrics-request';
export const METRICS_REPLY = 'review-desk:metrics-reply';

let nextId = 0;
function askPrimaryForMetrics(): Promise<string> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('metrics aggregation timed out'));
    }, 5_000);
    function onMessage(message: unknown) {
      const m = message as { type?: string; id?: number; body?: string; error?: string };
      if (m?.type !== METRICS_REPLY || m.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (typeof m.body === 'string') resolve(m.body);
      else reject(new Error(m.error ?? 'metrics aggregation failed'));
    }
    process.on('message', onMessage);
    process.send?.({ type: METRICS_REQUEST, id });
  });
}
