import http from 'node:http';
import https from 'node:https';

// BFF_DEV_HOOKS=1 lets anyone move the clock list sends, alerts and digests wait on. Beside an
// upstream that reaches customers that would let them skip a list's daily cap or its pace, so the
// dev hooks go only with development services: an upstream whose own dev clock or dev outbox
// answers (the service refuses both beside a real delivery provider: apps/api env.ts).

const PROBES = ['/dev/clock', '/dev/outbox.json?limit=1'];

function answers(url: URL, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: 'GET', timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(false));
    request.end();
  });
}

/**
 * Whether an upstream is a development service. A yes is remembered (one entry per upstream the
 * locations name); a no is asked again next time, as the service may have been started since.
 */
export function developmentUpstreams(timeoutMs: number) {
  const confirmed = new Set<string>();
  return async (url: URL): Promise<boolean> => {
    const base = url.href.replace(/\/+$/, '');
    if (confirmed.has(base)) return true;
    for (const probe of PROBES) {
      if (await answers(new URL(`${base}${probe}`), timeoutMs)) {
        confirmed.add(base);
        return true;
      }
    }
    return false;
  };
}
