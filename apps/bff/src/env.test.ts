import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

const base = { UPSTREAM_URL: 'http://127.0.0.1:4000', UPSTREAM_API_KEY: 'rd_live_abc' };

function error(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      upstream: {
        authScheme: 'x-api-key',
        origin: 'http://127.0.0.1:4000',
        timeoutMs: 10_000,
        key: 'rd_live_abc',
      },
      allowedOrigins: [],
      trustProxy: false,
      businessName: null,
      frequencyCapDays: 30,
      session: { idleMs: 60 * 60_000, absoluteMs: 12 * 3_600_000 },
      idempotencyRetentionMs: 72 * 3_600_000,
      cookieSecure: 'auto',
      workers: 1,
      admin: null,
    });
  });

  it('stops on a bad or missing variable with one line naming it', () => {
    expect(error({ UPSTREAM_API_KEY: 'k' })).toBe('UPSTREAM_URL is required');
    expect(error({ UPSTREAM_URL: 'http://x' })).toMatch(
      /^UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE is required/,
    );
    expect(error({ ...base, UPSTREAM_URL: 'ftp://x' })).toBe('UPSTREAM_URL must be an http or https URL');
    expect(error({ ...base, UPSTREAM_AUTH_SCHEME: 'basic' })).toBe(
      'UPSTREAM_AUTH_SCHEME must be one of x-api-key, bearer',
    );
    expect(error({ ...base, PORT: '80a' })).toBe('PORT must be a whole number');
    expect(error({ ...base, IDEMPOTENCY_RETENTION_HOURS: '12' })).toBe(
      'IDEMPOTENCY_RETENTION_HOURS must be at least 24',
    );
    expect(error({ ...base, ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' })).toMatch(
      /bad\.example\/path/,
    );
    expect(error({ ...base, ADMIN_EMAIL: 'a@example.com' })).toMatch(
      /ADMIN_EMAIL and ADMIN_PASSWORD go together/,
    );
    expect(error({ ...base, UPSTREAM_API_KEY: '', UPSTREAM_API_KEY_FILE: '/nonexistent/key' })).toBe(
      'UPSTREAM_API_KEY_FILE: cannot read /nonexistent/key (ENOENT)',
    );
  });

  it('derives Origin from UPSTREAM_URL unless UPSTREAM_ORIGIN is given, and parses ALLOWED_ORIGINS exactly', () => {
    const config = loadConfig({
      ...base,
      UPSTREAM_URL: 'https://api.example.com:8443/base',
      UPSTREAM_ORIGIN: 'https://app.example.com',
      ALLOWED_ORIGINS: 'https://a.example, http://b.example:3000',
    });
    expect(config.upstream.origin).toBe('https://app.example.com');
    expect(config.allowedOrigins).toEqual(['https://a.example', 'http://b.example:3000']);
    expect(loadConfig({ ...base, UPSTREAM_URL: 'https://api.example.com:8443/base' }).upstream.origin).toBe(
      'https://api.example.com:8443',
    );
  });
});
