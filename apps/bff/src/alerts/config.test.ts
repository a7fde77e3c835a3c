import { describe, expect, it } from 'vitest';
import { BASE_ENV, configWith, refusalOf } from '../../test/support/config.ts';

const refusal = (env: Record<string, string>) => refusalOf({ ...BASE_ENV, ...env });

describe('the alerts’ configuration', () => {
  it('polls every 120 s, sends no email and keeps the real clock by default', () => {
    const config = configWith();
    expect(config.alerts).toEqual({ pollMs: 120_000, smtp: null });
    expect(config.devHooks).toBe(false);
  });

  it('takes an SMTP server and its sender', () => {
    const config = configWith({
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
    expect(configWith({ BFF_DEV_HOOKS: '1' }).devHooks).toBe(true);
  });
});
