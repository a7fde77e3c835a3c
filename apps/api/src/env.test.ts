import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configMarkdown, generatedSection } from '@review-desk/server/config';
import { REPO_ROOT } from '@review-desk/server/files';
import { startupRefusal } from '@review-desk/server/test-support/startup';
import { describe, expect, it } from 'vitest';
import { API_CONFIG, loadConfig } from './env.ts';

const refusal = (env: Record<string, string>) => startupRefusal(() => loadConfig(env));

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

  it('never runs the movable clock beside a provider that reaches customers, whatever NODE_ENV says', () => {
    const twilio = {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'b'.repeat(32),
      TWILIO_FROM: '+15005550006',
    };
    const smtp = { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://127.0.0.1:2525' };
    for (const env of [
      { DEV_CLOCK: '1', ...twilio },
      { DEV_CLOCK: '1', ...smtp, NODE_ENV: 'development' },
      { DEV_CLOCK: '1', ...twilio, ...smtp },
    ]) {
      const error = refusal(env);
      expect(error.variable).toBe('DEV_CLOCK');
      expect(error.message).not.toContain('\n');
      expect(error.message).toMatch(
        /^Invalid configuration: DEV_CLOCK must be off with a real delivery provider/,
      );
    }
    expect(refusal({ DEV_CLOCK: '1', ...twilio, ...smtp }).message).toContain(
      '(SMS_PROVIDER=twilio at https://api.twilio.com, EMAIL_PROVIDER=smtp)',
    );
    // The tests' stand-in for Twilio on this machine, and the outbox, keep every message here.
    expect(loadConfig({ DEV_CLOCK: '1', ...twilio, TWILIO_API_BASE: 'http://127.0.0.1:4555' }).devClock).toBe(
      true,
    );
    expect(loadConfig({ DEV_CLOCK: '1' }).devClock).toBe(true);
  });
});

describe('providers per channel', () => {
  const SID = `AC${'a'.repeat(32)}`;
  const TOKEN = 'b'.repeat(32);

  it('SMS_PROVIDER and EMAIL_PROVIDER choose each channel; DELIVERY_PROVIDER is the old spelling of the email one', () => {
    expect(loadConfig({})).toMatchObject({ smsProvider: 'outbox', deliveryProvider: 'outbox', twilio: null });
    expect(loadConfig({ DELIVERY_PROVIDER: 'smtp', SMTP_URL: 'smtp://m.example:587' }).deliveryProvider).toBe(
      'smtp',
    );
    expect(
      loadConfig({ DELIVERY_PROVIDER: 'smtp', EMAIL_PROVIDER: 'outbox', SMTP_URL: 'smtp://m.example:587' })
        .deliveryProvider,
    ).toBe('outbox');
    expect(
      loadConfig({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '+15005550006',
      }).twilio,
    ).toMatchObject({
      accountSid: SID,
      username: SID,
      password: TOKEN,
      from: '+15005550006',
      apiBase: 'https://api.twilio.com/',
    });
    expect(
      loadConfig({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_API_KEY_SID: `SK${'c'.repeat(32)}`,
        TWILIO_API_KEY_SECRET: 'd'.repeat(32),
        TWILIO_MESSAGING_SERVICE_SID: `MG${'e'.repeat(32)}`,
      }).twilio,
    ).toMatchObject({
      username: `SK${'c'.repeat(32)}`,
      authToken: TOKEN,
      from: null,
      messagingServiceSid: `MG${'e'.repeat(32)}`,
    });
  });

  it.each([
    [{ SMS_PROVIDER: 'twilio' }, 'TWILIO_ACCOUNT_SID'],
    [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID }, 'TWILIO_AUTH_TOKEN'],
    [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN }, 'TWILIO_FROM'],
    [
      {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '+15005550006',
        TWILIO_API_KEY_SID: `SK${'c'.repeat(32)}`,
      },
      'TWILIO_API_KEY_SECRET',
    ],
    [{ EMAIL_PROVIDER: 'smtp' }, 'SMTP_URL'],
    [{ SMS_PROVIDER: 'carrier-pigeon' }, 'SMS_PROVIDER'],
    [{ TWILIO_ACCOUNT_SID: 'AC123' }, 'TWILIO_ACCOUNT_SID'],
    [{ QUIET_HOURS: '25:00-08:00' }, 'QUIET_HOURS'],
    [{ BUSINESS_TIME_ZONE: 'Mars/Olympus' }, 'BUSINESS_TIME_ZONE'],
    [
      {
        DEV_OUTBOX: '1',
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '+15005550006',
      },
      'DEV_OUTBOX',
    ],
  ])('%o stops the start with one line naming %s', (env, variable) => {
    const error = refusal(env as Record<string, string>);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });

  it('reads the default sending hours', () => {
    expect(loadConfig({})).toMatchObject({ quietHours: { start: 480, end: 1260 }, businessTimeZone: 'UTC' });
    expect(loadConfig({ QUIET_HOURS: 'off' }).quietHours).toBeNull();
  });
});

describe('the README', () => {
  it('shows the service’s configuration table as the table declares it (npm run docs:config)', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(generatedSection(readme, 'api')).toBe(configMarkdown(API_CONFIG));
  });
});
