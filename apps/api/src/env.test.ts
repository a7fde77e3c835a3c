import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from './env.ts';

describe('loadConfig', () => {
  it('has a default for every variable', () => {
    const result = loadConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databasePath: path.join(REPO_ROOT, 'data/api.db'),
      publicOrigin: undefined,
      allowedOrigins: [],
      corsOrigins: [],
      csrfExemptApiKeys: false,
      frequencyCapDays: 30,
      rateLimitPerMinute: 120,
      monthlySendAllowance: 1000,
      deliveryProvider: 'outbox',
      devOutbox: false,
      seedDemo: false,
      demoKeyFile: path.join(REPO_ROOT, 'data/demo-api-key'),
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it('reads and normalises values; empty means unset', () => {
    const result = loadConfig({
      PORT: '0',
      PORT_UNRELATED: 'x',
      DATABASE_PATH: ':memory:',
      PUBLIC_ORIGIN: 'https://reviews.example.com/',
      ALLOWED_ORIGINS: 'https://a.example, http://127.0.0.1:5173',
      CSRF_EXEMPT_API_KEYS: 'true',
      FREQUENCY_CAP_DAYS: '0',
      DEV_OUTBOX: '1',
      LOG_LEVEL: '',
      TRUST_PROXY: '1',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 0,
      databasePath: ':memory:',
      publicOrigin: 'https://reviews.example.com',
      allowedOrigins: ['https://a.example', 'http://127.0.0.1:5173'],
      csrfExemptApiKeys: true,
      frequencyCapDays: 0,
      devOutbox: true,
      logLevel: 'info',
      trustProxy: 1,
    });
  });

  it.each([
    [{ PORT: '70000' }, /^Invalid configuration: PORT: /],
    [{ PORT: '-1' }, /PORT/],
    [{ PUBLIC_ORIGIN: 'https://example.com/app' }, /PUBLIC_ORIGIN must be an origin/],
    [{ CORS_ORIGINS: '*' }, /CORS_ORIGINS/],
    [{ DEV_OUTBOX: 'maybe' }, /DEV_OUTBOX must be 1\/0/],
    [{ DELIVERY_PROVIDER: 'carrier-pigeon' }, /DELIVERY_PROVIDER must be outbox or smtp/],
    [{ DELIVERY_PROVIDER: 'smtp' }, /SMTP_URL: required/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, /RATE_LIMIT_PER_MINUTE/],
  ])('%o is refused with one line naming the variable', (env, message) => {
    const result = loadConfig(env);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(message);
    expect(result.message).not.toContain('\n');
  });
});
