import { StartupError } from '@review-desk/server/startup-error';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env.ts';

const base = { UPSTREAM_URL: 'http://127.0.0.1:4000', UPSTREAM_API_KEY: 'rd_live_abc' };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (e) {
    if (e instanceof StartupError) return e.message;
    throw e;
  }
  throw new Error('expected a configuration error');
}

describe('the alerts’ configuration', () => {
  it('polls every 120 s, sends no email and keeps the real clock by default', () => {
    const config = loadConfig(base);
    expect(config.alerts).toEqual({ pollMs: 120_000, smtp: null });
    expect(config.devHooks).toBe(false);
  });

  it('takes an SMTP server and its sender', () => {
    const config = loadConfig({
      ...base,
      ALERT_POLL_SECONDS: '30',
      BFF_SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
      BFF_SMTP_FROM: 'Desk <desk@example.com>',
    });
    expect(config.alerts).toEqual({
      pollMs: 30_000,
      smtp: { url: 'smtp://user:pass@127.0.0.1:2525', from: 'Desk <desk@example.com>' },
    });
  });

  it('refuses a bad interval, a non-SMTP URL, and dev hooks in production', () => {
    expect(refusal({ ALERT_POLL_SECONDS: '0' })).toContain('ALERT_POLL_SECONDS');
    expect(refusal({ BFF_SMTP_URL: 'http://mail.example' })).toContain('BFF_SMTP_URL');
    expect(refusal({ BFF_DEV_HOOKS: '1', NODE_ENV: 'production' })).toContain('BFF_DEV_HOOKS');
    expect(loadConfig({ ...base, BFF_DEV_HOOKS: '1' }).devHooks).toBe(true);
  });
});
