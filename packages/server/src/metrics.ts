import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

// Prometheus metrics every service has: the process's own (memory, CPU, event-loop lag) and its
// HTTP answers by route *name* (never a raw path: labels stay bounded), method and status.

export const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export type HttpMetrics = {
  registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
};

export function createHttpMetrics(service: 'api' | 'bff'): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: `${service}_http_requests_total`,
    help: 'HTTP requests answered, by route name, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${service}_http_request_duration_seconds`,
    help: 'Time from request to response end, by route name, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // Label lookups hash their arguments; the few combinations that exist are kept as children.
  const children = new Map<string, { count: () => void; observe: (v: number) => void }>();
  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const key = `${route} ${method} ${status}`;
      let child = children.get(key);
      if (!child) {
        const labels = { route, method, status: String(status) };
        const counter = requests.labels(labels);
        const histogram = duration.labels(labels);
        child = { count: () => counter.inc(), observe: (v: number) => histogram.observe(v) };
        children.set(key, child);
      }
      child.count();
      child.observe(seconds);
    },
  };
}
