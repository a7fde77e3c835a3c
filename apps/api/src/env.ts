import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FREQUENCY_CAP_DAYS_DEFAULT } from '@review-desk/shared';
import { z } from 'zod';

// The only reader of process.env. Every variable has a default so `npm start` works on a fresh
// machine; a bad value stops the start with one line naming the variable.

/** Relative paths (DATABASE_PATH, DEMO_KEY_FILE) are resolved against the repository root, so the
 * API, the BFF and the CLI find the same files whatever directory npm runs them from. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = (name: string) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off', ''], {
      error: `${name} must be 1/0 or true/false`,
    })
    .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === 'on');

const wholeNumber = (name: string, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, { error: `${name} must be a whole number from 0 to ${max}` })
    .transform(Number)
    .pipe(z.number().max(max, { error: `${name} must be a whole number from 0 to ${max}` }));

const origin = (name: string) =>
  z.string().transform((value, ctx) => {
    try {
      const url = new URL(value);
      if (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.origin === value.replace(/\/$/, '')
      ) {
        return url.origin;
      }
    } catch {
      // fall through to the issue below
    }
    ctx.addIssue({
      code: 'custom',
      message: `${name} must be an origin like https://reviews.example.com (scheme, host and optional port, no path): got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  });

const originList = (name: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(origin(name)));

const envSchema = z.object({
  PORT: wholeNumber('PORT', 65535).default(4000),
  HOST: z.string().min(1, { error: 'HOST must not be empty' }).default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('data/api.db'),
  PUBLIC_ORIGIN: origin('PUBLIC_ORIGIN').optional(),
  ALLOWED_ORIGINS: originList('ALLOWED_ORIGINS').default([]),
  CORS_ORIGINS: originList('CORS_ORIGINS').default([]),
  CSRF_EXEMPT_API_KEYS: bool('CSRF_EXEMPT_API_KEYS').default(false),
  FREQUENCY_CAP_DAYS: wholeNumber('FREQUENCY_CAP_DAYS', 3650).default(FREQUENCY_CAP_DAYS_DEFAULT),
  RATE_LIMIT_PER_MINUTE: wholeNumber('RATE_LIMIT_PER_MINUTE', 1_000_000).default(120),
  MONTHLY_SEND_ALLOWANCE: wholeNumber('MONTHLY_SEND_ALLOWANCE', 1_000_000_000).default(1000),
  DELIVERY_PROVIDER: z
    .enum(['outbox', 'smtp'], { error: 'DELIVERY_PROVIDER must be outbox or smtp' })
    .default('outbox'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'SMTP_URL must start with smtp:// or smtps://' })
    .optional(),
  SMTP_FROM: z.string().min(3).default('Review Desk <reviews@localhost>'),
  DEV_OUTBOX: bool('DEV_OUTBOX').default(false),
  SEED_DEMO: bool('SEED_DEMO').default(false),
  DEMO_KEY_FILE: z.string().min(1).default('data/demo-api-key'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9]{1,2}|[0-9a-fA-F.:/, ]+|loopback|linklocal|uniquelocal)$/, {
      error: 'TRUST_PROXY must be false, true, a hop count, or a comma list of addresses/subnets',
    })
    .default('false'),
});

export type Config = {
  port: number;
  host: string;
  /** Absolute path, or `:memory:`. */
  databasePath: string;
  /** Unset: http://HOST:PORT as actually bound. */
  publicOrigin: string | undefined;
  allowedOrigins: string[];
  corsOrigins: string[];
  csrfExemptApiKeys: boolean;
  frequencyCapDays: number;
  rateLimitPerMinute: number;
  monthlySendAllowance: number;
  deliveryProvider: 'outbox' | 'smtp';
  smtpUrl: string | undefined;
  smtpFrom: string;
  devOutbox: boolean;
  seedDemo: boolean;
  demoKeyFile: string;
  logLevel: string;
  trustProxy: boolean | number | string;
};

function resolvePath(p: string): string {
  return p === ':memory:' || path.isAbsolute(p) ? p : path.resolve(REPO_ROOT, p);
}

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^[0-9]+$/.test(value)) return Number(value);
  return value;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; message: string };

/** Validates an environment (process.env by default). Never throws. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ConfigResult {
  // An empty variable means "unset": `PORT= npm start` takes the default.
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in envSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    return { ok: false, message: `Invalid configuration: ${name}: ${issue.message}` };
  }
  const e = parsed.data;
  if (e.DELIVERY_PROVIDER === 'smtp' && !e.SMTP_URL) {
    return {
      ok: false,
      message:
        'Invalid configuration: SMTP_URL: required when DELIVERY_PROVIDER=smtp (e.g. smtp://user:pass@host:587)',
    };
  }
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      databasePath: resolvePath(e.DATABASE_PATH),
      publicOrigin: e.PUBLIC_ORIGIN,
      allowedOrigins: e.ALLOWED_ORIGINS,
      corsOrigins: e.CORS_ORIGINS,
      csrfExemptApiKeys: e.CSRF_EXEMPT_API_KEYS,
      frequencyCapDays: e.FREQUENCY_CAP_DAYS,
      rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      monthlySendAllowance: e.MONTHLY_SEND_ALLOWANCE,
      deliveryProvider: e.DELIVERY_PROVIDER,
      smtpUrl: e.SMTP_URL,
      smtpFrom: e.SMTP_FROM,
      devOutbox: e.DEV_OUTBOX,
      seedDemo: e.SEED_DEMO,
      demoKeyFile: resolvePath(e.DEMO_KEY_FILE),
      logLevel: e.LOG_LEVEL,
      trustProxy: trustProxy(e.TRUST_PROXY),
    },
  };
}

/** Defaults for tests and tools: the same schema, with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const result = loadConfig({});
  if (!result.ok) throw new Error(result.message);
  return { ...result.config, port: 0, databasePath: ':memory:', logLevel: 'silent', ...overrides };
}
