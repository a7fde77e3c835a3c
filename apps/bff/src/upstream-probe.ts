import http from 'node:http';
import https from 'node:https';
import type { Config } from './env.ts';

// /readyz's upstream check.

/**
 * Whether the configured upstream (UPSTREAM_URL) answers HTTP at all (any status below 500),
 * cached briefly. Without UPSTREAM_URL each stored location's upstream answers for itself (its
 * failures are its own rows in the overview), and readiness does not wait on any of them.
 */
export function upstreamProbe(config: Config) {
  let cached: { at: number; ok: boolean } | null = null;
  if (config.upstream === null) return null;
  const probeUrl = new URL(`${config.upstream.url.href.replace(/\/+$/, '')}/healthz`);
  return async (): Promise<boolean> => {
    if (cached && Date.now() - cached.at < 2_000) return cached.ok;
    const ok = await new Promise<boolean>((resolve) => {
      const transport = probeUrl.protocol === 'https:' ? https : http;
      const request = transport.request(probeUrl, { method: 'GET', timeout: 2_000, agent: false }, (res) => {
        res.resume();
        resolve((res.statusCode ?? 500) < 500);
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(false));
      request.end();
    });
    cached = { at: Date.now(), ok };
    return ok;
  };
}
