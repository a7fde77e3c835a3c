import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configMarkdown, generatedSection } from '@review-desk/server/config';
import { REPO_ROOT } from '@review-desk/server/files';
import { meSchema } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { BASE_ENV, configWith, refusalOf } from '../test/support/config.ts';
import { meFor } from './auth/routes.ts';
import { BFF_CONFIG, loadConfig } from './env.ts';

const base = BASE_ENV;
const error = refusalOf;

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = configWith();
    expect(config).toMatchObject({
      port: 8080,
      portExplicit: false,
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
      metricsToken: undefined,
    });
    expect(configWith({ PORT: '8080' }).portExplicit).toBe(true);
  });

  it('stops on a bad or missing variable with one line naming it', () => {
    expect(error({ UPSTREAM_API_KEY: 'k' })).toBe(
      'UPSTREAM_API_KEY needs UPSTREAM_URL, the upstream the key is for',
    );
    expect(error({ UPSTREAM_URL: 'http://x' })).toMatch(
      /^UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE is required with UPSTREAM_URL/,
    );
    expect(error({ ...base, UPSTREAM_URL: 'ftp://x' })).toBe('UPSTREAM_URL must be an http or https URL');
    expect(error({ ...base, UPSTREAM_AUTH_SCHEME: 'basic' })).toBe(
      'UPSTREAM_AUTH_SCHEME must be one of x-api-key, bearer',
    );
    expect(error({ ...base, PORT: '80a' })).toMatch(/^PORT must be a port number from 0 to 65535/);
    expect(error({ ...base, IDEMPOTENCY_RETENTION_HOURS: '12' })).toBe(
      'IDEMPOTENCY_RETENTION_HOURS must be at least 24',
    );
    expect(error({ ...base, ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' })).toMatch(
      /^ALLOWED_ORIGINS .*bad\.example\/path/,
    );
    expect(error({ ...base, ADMIN_EMAIL: 'a@example.com' })).toMatch(
      /ADMIN_EMAIL and ADMIN_PASSWORD go together/,
    );
    expect(error({ ...base, UPSTREAM_API_KEY: '', UPSTREAM_API_KEY_FILE: '/nonexistent/key' })).toBe(
      'UPSTREAM_API_KEY_FILE: cannot read /nonexistent/key (ENOENT)',
    );
    expect(error({ ...base, METRICS_TOKEN: 'short' })).toBe('METRICS_TOKEN must be at least 16 characters');
  });

  it('derives Origin from UPSTREAM_URL unless UPSTREAM_ORIGIN is given, and parses ALLOWED_ORIGINS exactly', () => {
    const config = configWith({
      UPSTREAM_URL: 'https://api.example.com:8443/base',
      UPSTREAM_ORIGIN: 'https://app.example.com',
      ALLOWED_ORIGINS: 'https://a.example, http://b.example:3000',
    });
    expect(config.upstream?.origin).toBe('https://app.example.com');
    expect(config.allowedOrigins).toEqual(['https://a.example', 'http://b.example:3000']);
    expect(configWith({ UPSTREAM_URL: 'https://api.example.com:8443/base' }).upstream?.origin).toBe(
      'https://api.example.com:8443',
    );
  });

  it('takes FREQUENCY_CAP_DAYS=0 as no cap, and /auth/me says so in a shape the dashboard reads', () => {
    const config = configWith({ FREQUENCY_CAP_DAYS: '0' });
    expect(config.frequencyCapDays).toBe(0);
    const me = meFor({ id: 'u1', email: 'a@example.com', role: 'staff' }, config);
    expect(meSchema.parse(me).settings.frequencyCapDays).toBe(0);
  });

  it('resolves relative paths against the repository root, not the current folder', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rd-bff-env-'));
    try {
      writeFileSync(path.join(dir, 'key'), 'rd_live_fromfile\n');
      const relative = path.relative(REPO_ROOT, path.join(dir, 'key'));
      const config = loadConfig({
        UPSTREAM_URL: base.UPSTREAM_URL,
        UPSTREAM_API_KEY_FILE: relative,
        BFF_DATABASE_PATH: 'data/x.db',
        WEB_DIST_DIR: 'apps/web/dist',
      });
      expect(config.upstream?.key).toBe('rd_live_fromfile');
      expect(config.databasePath).toBe(path.join(REPO_ROOT, 'data/x.db'));
      expect(config.webDistDir).toBe(path.join(REPO_ROOT, 'apps/web/dist'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the send history at least as long as the Idempotency-Keys it holds', () => {
    expect(error({ ...base, SEND_HISTORY_DAYS: '2', FREQUENCY_CAP_DAYS: '1' })).toBe(
      'SEND_HISTORY_DAYS must be at least 3 to keep Idempotency-Keys as long as IDEMPOTENCY_RETENTION_HOURS=72',
    );
    expect(configWith({ SEND_HISTORY_DAYS: '3', FREQUENCY_CAP_DAYS: '3' }).sendHistoryMs).toBe(
      3 * 86_400_000,
    );
    expect(
      error({ ...base, SEND_HISTORY_DAYS: '5', IDEMPOTENCY_RETENTION_HOURS: '121', FREQUENCY_CAP_DAYS: '0' }),
    ).toMatch(/^SEND_HISTORY_DAYS must be at least 6/);
  });
});

describe('without UPSTREAM_URL', () => {
  it('starts on the stored locations alone: no upstream is configured, and none is required', () => {
    const config = loadConfig({});
    expect(config.upstream).toBeNull();
    expect(config.upstreamTimeoutMs).toBe(10_000);
  });
});

describe('the dev hooks', () => {
  it('are refused beside a mail server, whatever NODE_ENV says, in one line naming both variables', () => {
    for (const nodeEnv of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }] as Record<
      string,
      string
    >[]) {
      const message = error({
        ...base,
        ...nodeEnv,
        BFF_DEV_HOOKS: '1',
        BFF_SMTP_URL: 'smtp://127.0.0.1:2525',
      });
      expect(message).toMatch(/^BFF_DEV_HOOKS must be off with BFF_SMTP_URL/);
      expect(message).not.toContain('\n');
    }
    expect(configWith({ BFF_DEV_HOOKS: '1' }).devHooks).toBe(true);
  });
});

describe('the README', () => {
  it('shows the BFF’s configuration table as the table declares it (npm run docs:config)', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(generatedSection(readme, 'bff')).toBe(configMarkdown(BFF_CONFIG));
  });
});
