import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_SCHEMES, FREQUENCY_CAP_DAYS_DEFAULT, PASSWORD_MIN } from '@review-desk/shared';
import { z } from 'zod';

// The only reader of process.env. Every variable is validated here at start; a bad or missing
// one stops the process with one line naming it (see ConfigError and main.ts).

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  upstreamTimeoutMs: 10_000,
  databasePath: path.join(repoRoot, 'data/bff.db'),
  webDistDir: path.join(repoRoot, 'apps/web/dist'),
  sessionIdleMinutes: 60,
  sessionAbsoluteHours: 12,
  idempotencyRetentionHours: 72,
  sendHistoryDays: 180,
} as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());

const number = (name: string, opts: { min: number; max?: number; int?: boolean }, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(opts.int ? /^\d+$/ : /^\d+(\.\d+)?$/, {
        error: `${name} must be a ${opts.int ? 'whole ' : ''}number`,
      })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(opts.min, { error: `${name} must be at least ${opts.min}` })
          .max(opts.max ?? Number.MAX_SAFE_INTEGER, { error: `${name} must be at most ${opts.max}` }),
      )
      .default(fallback),
  );

const httpUrl = (name: string) =>
  z.string({ error: `${name} is required` }).transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be an absolute http(s) URL` });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http or https URL` });
      return z.NEVER;
    }
    if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `${name} must not carry credentials, a query or a fragment` });
      return z.NEVER;
    }
    return url;
  });

/** An exact origin: scheme://host[:port], nothing else (the form browsers send in Origin). */
function parseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.origin !== value.replace(/\/$/, '')) return null;
    return url.origin;
  } catch {
    return null;
  }
}

const originList = z.preprocess(
  blankToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return [] as string[];
      const origins: string[] = [];
      for (const part of value.split(',')) {
        const trimmed = part.trim();
        if (trimmed === '') continue;
        const origin = parseOrigin(trimmed);
        if (!origin) {
          ctx.addIssue({
            code: 'custom',
            message: `ALLOWED_ORIGINS: "${trimmed}" is not an exact origin such as https://app.example.com`,
          });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
);

/** Express's `trust proxy`: false (default), true, a hop count, or addresses/subnets (loopback, 10.0.0.0/8, …). */
const trustProxy = z.preprocess(
  blankToUndefined,
  z
    .string()
    .optional()
    .transform((value): boolean | number | string => {
      if (value === undefined || value === 'false' || value === '0') return false;
      if (value === 'true') return true;
      if (/^\d+$/.test(value)) return Number(value);
      return value;
    }),
);

const serverSchema = z
  .object({
    PORT: number('PORT', { min: 0, max: 65535, int: true }, DEFAULTS.port),
    HOST: z.preprocess(blankToUndefined, z.string().default(DEFAULTS.host)),
    UPSTREAM_URL: z.preprocess(blankToUndefined, httpUrl('UPSTREAM_URL')),
    UPSTREAM_API_KEY: optionalText,
    UPSTREAM_API_KEY_FILE: optionalText,
    UPSTREAM_AUTH_SCHEME: z.preprocess(
      blankToUndefined,
      z
        .enum(AUTH_SCHEMES, { error: `UPSTREAM_AUTH_SCHEME must be one of ${AUTH_SCHEMES.join(', ')}` })
        .default('x-api-key'),
    ),
    UPSTREAM_ORIGIN: z.preprocess(
      blankToUndefined,
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseOrigin(v) !== null, {
          error: 'UPSTREAM_ORIGIN must be an exact origin such as https://reviews.example.com',
        }),
    ),
    UPSTREAM_TIMEOUT_MS: number(
      'UPSTREAM_TIMEOUT_MS',
      { min: 100, max: 300_000, int: true },
      DEFAULTS.upstreamTimeoutMs,
    ),
    BFF_DATABASE_PATH: z.preprocess(blankToUndefined, z.string().default(DEFAULTS.databasePath)),
    ALLOWED_ORIGINS: originList,
    PUBLIC_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .optional()
        .refine((v) => v === undefined || parseOrigin(v.replace(/\/+$/, '')) !== null, {
          error: 'PUBLIC_URL must be the dashboard origin as browsers see it, e.g. https://desk.example.com',
        }),
    ),
    ADMIN_EMAIL: z.preprocess(
      blankToUndefined,
      z.email({ error: 'ADMIN_EMAIL must be a valid email address' }).toLowerCase().optional(),
    ),
    ADMIN_PASSWORD: z.preprocess(
      blankToUndefined,
      z
        .string()
        .min(PASSWORD_MIN, { error: `ADMIN_PASSWORD must be at least ${PASSWORD_MIN} characters` })
        .optional(),
    ),
    TRUST_PROXY: trustProxy,
    BUSINESS_NAME: optionalText,
    FREQUENCY_CAP_DAYS: number(
      'FREQUENCY_CAP_DAYS',
      { min: 1, max: 3650, int: true },
      FREQUENCY_CAP_DAYS_DEFAULT,
    ),
    WEB_DIST_DIR: z.preprocess(blankToUndefined, z.string().default(DEFAULTS.webDistDir)),
    SESSION_IDLE_MINUTES: number('SESSION_IDLE_MINUTES', { min: 0.01 }, DEFAULTS.sessionIdleMinutes),
    SESSION_ABSOLUTE_HOURS: number('SESSION_ABSOLUTE_HOURS', { min: 0.001 }, DEFAULTS.sessionAbsoluteHours),
    // A key is remembered at least 24 h, so a retry the next morning is still caught.
    IDEMPOTENCY_RETENTION_HOURS: number(
      'IDEMPOTENCY_RETENTION_HOURS',
      { min: 24, max: 24 * 365 },
      DEFAULTS.idempotencyRetentionHours,
    ),
    SEND_HISTORY_DAYS: number(
      'SEND_HISTORY_DAYS',
      { min: 1, max: 3650, int: true },
      DEFAULTS.sendHistoryDays,
    ),
    COOKIE_SECURE: z.preprocess(
      blankToUndefined,
      z
        .enum(['auto', 'true', 'false'], { error: 'COOKIE_SECURE must be auto, true or false' })
        .default('auto'),
    ),
    LOG_LEVEL: z.preprocess(
      blankToUndefined,
      z
        .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
          error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
        })
        .default('info'),
    ),
    BFF_WORKERS: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^(auto|\d+)$/, { error: 'BFF_WORKERS must be auto or a whole number' })
        .default('1')
        .transform((v) => (v === 'auto' ? Math.max(1, Math.min(availableParallelism(), 8)) : Number(v)))
        .pipe(z.number().min(1, { error: 'BFF_WORKERS must be at least 1' }).max(64)),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.UPSTREAM_API_KEY === undefined && env.UPSTREAM_API_KEY_FILE === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPSTREAM_API_KEY'],
        message: 'UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE is required (the API key the BFF sends upstream)',
      });
    }
    if (env.UPSTREAM_API_KEY !== undefined && env.UPSTREAM_API_KEY_FILE !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPSTREAM_API_KEY'],
        message: 'set only one of UPSTREAM_API_KEY and UPSTREAM_API_KEY_FILE',
      });
    }
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither',
      });
    }
    if (env.SESSION_IDLE_MINUTES > env.SESSION_ABSOLUTE_HOURS * 60) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_IDLE_MINUTES'],
        message: 'SESSION_IDLE_MINUTES must not exceed SESSION_ABSOLUTE_HOURS',
      });
    }
    if (env.SEND_HISTORY_DAYS < env.FREQUENCY_CAP_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEND_HISTORY_DAYS'],
        message:
          'SEND_HISTORY_DAYS must be at least FREQUENCY_CAP_DAYS (the send form warns from the history)',
      });
    }
  });

export type Config = {
  port: number;
  host: string;
  upstream: {
    url: URL;
    key: string;
    authScheme: (typeof AUTH_SCHEMES)[number];
    /** Sent as Origin on POSTs so the upstream's browser-style CSRF rule passes (seed §5.7). */
    origin: string;
    timeoutMs: number;
  };
  databasePath: string;
  allowedOrigins: readonly string[];
  /** The dashboard's origin as browsers see it, when it is fixed by configuration. */
  publicOrigin: string | null;
  admin: { email: string; password: string } | null;
  trustProxy: boolean | number | string;
  businessName: string | null;
  frequencyCapDays: number;
  webDistDir: string;
  session: { idleMs: number; absoluteMs: number };
  idempotencyRetentionMs: number;
  sendHistoryMs: number;
  cookieSecure: 'auto' | boolean;
  logLevel: string;
  workers: number;
};

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid configuration';
  const name = issue.path.map(String).join('.');
  // Messages above already name their variable; zod's own ones (e.g. missing) do not.
  return name && !issue.message.includes(name) ? `${name}: ${issue.message}` : issue.message;
}

function readKeyFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`UPSTREAM_API_KEY_FILE: cannot read ${file} (${code})`);
  }
  const key = text.trim();
  if (key === '') throw new ConfigError(`UPSTREAM_API_KEY_FILE: ${file} is empty`);
  return key;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = serverSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(firstIssue(parsed.error));
  const env = parsed.data;
  const key = env.UPSTREAM_API_KEY ?? readKeyFile(env.UPSTREAM_API_KEY_FILE as string);
  if (/\s/.test(key)) throw new ConfigError('UPSTREAM_API_KEY must not contain whitespace');
  const upstreamUrl = env.UPSTREAM_URL as URL;
  return {
    port: env.PORT,
    host: env.HOST,
    upstream: {
      url: upstreamUrl,
      key,
      authScheme: env.UPSTREAM_AUTH_SCHEME,
      origin: env.UPSTREAM_ORIGIN ? (parseOrigin(env.UPSTREAM_ORIGIN) as string) : upstreamUrl.origin,
      timeoutMs: env.UPSTREAM_TIMEOUT_MS,
    },
    databasePath: path.resolve(env.BFF_DATABASE_PATH),
    allowedOrigins: env.ALLOWED_ORIGINS,
    publicOrigin: env.PUBLIC_URL ? parseOrigin(env.PUBLIC_URL.replace(/\/+$/, '')) : null,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    trustProxy: env.TRUST_PROXY,
    businessName: env.BUSINESS_NAME ?? null,
    frequencyCapDays: env.FREQUENCY_CAP_DAYS,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    session: {
      idleMs: Math.round(env.SESSION_IDLE_MINUTES * 60_000),
      absoluteMs: Math.round(env.SESSION_ABSOLUTE_HOURS * 3_600_000),
    },
    idempotencyRetentionMs: Math.round(env.IDEMPOTENCY_RETENTION_HOURS * 3_600_000),
    sendHistoryMs: env.SEND_HISTORY_DAYS * 86_400_000,
    cookieSecure: env.COOKIE_SECURE === 'auto' ? 'auto' : env.COOKIE_SECURE === 'true',
    logLevel: env.LOG_LEVEL,
    workers: env.BFF_WORKERS,
  };
}

/** The CLI needs only the database (and must run without an upstream configured). */
export function loadCliConfig(source: NodeJS.ProcessEnv = process.env): { databasePath: string } {
  const parsed = z
    .object({ BFF_DATABASE_PATH: z.preprocess(blankToUndefined, z.string().default(DEFAULTS.databasePath)) })
    .safeParse(source);
  if (!parsed.success) throw new ConfigError(firstIssue(parsed.error));
  return { databasePath: path.resolve(parsed.data.BFF_DATABASE_PATH) };
}

export { repoRoot };
