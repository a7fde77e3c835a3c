import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configMarkdown, generatedSection } from '@review-desk/server/config';
import { REPO_ROOT } from '@review-desk/server/files';
import { StartupError } from '@review-desk/server/startup-error';
import { describe, expect, it } from 'vitest';
import { API_CONFIG, loadConfig } from './env.ts';

function refusal(env: Record<string, string>): StartupError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof StartupError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('has a default for every variable', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      portExplicit: false,
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
      metricsToken: undefined,
    });
  });

  it('reads and normalises values; empty means unset', () => {
    expect(
      loadConfig({
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
      }),
    ).toMatchObject({
      port: 0,
      portExplicit: true,
      databasePath: ':memory:',
      publicOrigin: 'https://reviews.example.com',
      allowedOrigins: ['https://a.example', 'http://127.0.0.1:5173'],
      csrfExemptApiKeys: true,
      frequencyCapDays: 0,
      devOutbox: true,
      logLevel: 'info',
      trustProxy: 1,
    });
    expect(loadConfig({ PORT: '' }).portExplicit).toBe(false);
    expect(loadConfig({ PORT: '4100+' })).toMatchObject({ port: 4100, portExplicit: false });
    expect(loadConfig({ PORT: '4100' })).toMatchObject({ port: 4100, portExplicit: true });
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it.each([
    [{ PORT: '70000' }, /^Invalid configuration: PORT must be a port number from 0 to 65535$/],
    [{ PORT: '-1' }, /PORT/],
    [{ PUBLIC_ORIGIN: 'https://example.com/app' }, /PUBLIC_ORIGIN must be an origin/],
    [{ CORS_ORIGINS: '*' }, /CORS_ORIGINS/],
    [{ DEV_OUTBOX: 'maybe' }, /DEV_OUTBOX must be 1\/0/],
    [{ DELIVERY_PROVIDER: 'carrier-pigeon' }, /DELIVERY_PROVIDER must be one of outbox, smtp/],
    [{ DELIVERY_PROVIDER: 'smtp' }, /SMTP_URL is required when DELIVERY_PROVIDER=smtp/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, /RATE_LIMIT_PER_MINUTE/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
  ])('%o is refused with one line naming the variable', (env, message) => {
    const error = refusal(env);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(Object.keys(env)).toContain(error.variable === 'SMTP_URL' ? 'DELIVERY_PROVIDER' : error.variable);
  });

  it('never turns the dev outbox and its fault hooks on in production or with a real provider', () => {
    expect(refusal({ DEV_OUTBOX: '1', NODE_ENV: 'production' }).message).toMatch(
      /^Invalid configuration: DEV_OUTBOX must be off when NODE_ENV=production/,
    );
    expect(
      refusal({ DEV_OUTBOX: '1', DELIVERY_PROVIDER: 'smtp', SMTP_URL: 'smtp://mail.example:587' }).message,
    ).toMatch(/DEV_OUTBOX must be off with a real delivery provider \(DELIVERY_PROVIDER=smtp\)/);
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
  });
});

describe('the README', () => {
  it('shows the service’s configuration table as the table declares it (npm run docs:config)', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(generatedSection(readme, 'api')).toBe(configMarkdown(API_CONFIG));
  });
});
