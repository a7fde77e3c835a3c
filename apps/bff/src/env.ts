import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as setting from '@review-desk/server/config';
import { REPO_ROOT, resolveFrom } from '@review-desk/server/files';
import { AUTH_SCHEMES, FREQUENCY_CAP_DAYS_DEFAULT, PASSWORD_MIN } from '@review-desk/shared';
import { DAY_MS } from '@review-desk/shared/time';
import { z } from 'zod';
import { BULK_CONFIG, loadBulkConfig } from './env-bulk.ts';
import { refuseDevHooks } from './env-dev.ts';
import { ROLE_CONFIG, rolePolicyOf } from './env-roles.ts';
import { loadStorageConfig, STORAGE_CONFIG } from './env-storage.ts';

// The only reader of process.env: the BFF's configuration table. Each variable is declared once
// (name, type, default, meaning); a bad or missing one stops the start with one line naming it.
// The README's table is generated from this one (npm run docs:config). Where the data lives is
// declared in env-storage.ts, which the CLI reads alone.
export { loadCliConfig } from './env-storage.ts';

export const BFF_CONFIG = setting.defineConfig({
  ...setting.listenVariables(8080),
  UPSTREAM_URL: {
    type: setting.httpUrl(),
    shown: 'while no location is stored',
    description:
      'Base URL of the Review Collection API (a path prefix is kept): the one location while none is stored, and the upstream of stored locations added without their own ([docs/locations.md](docs/locations.md)).',
  },
  UPSTREAM_API_KEY: {
    type: z.string().regex(/^\S+$/, { error: 'must not contain whitespace' }),
    shown: 'one of the two, with `UPSTREAM_URL`',
    description: 'The API key, sent upstream only.',
  },
  UPSTREAM_API_KEY_FILE: {
    type: setting.text(),
    shown: 'one of the two, with `UPSTREAM_URL`',
    description: 'A file holding the key (read once at start; the embedded API’s demo key file).',
  },
  UPSTREAM_AUTH_SCHEME: {
    type: setting.oneOf(AUTH_SCHEMES),
    default: 'x-api-key',
    description: '`x-api-key` (`X-API-Key: <key>`) or `bearer` (`Authorization: Bearer <key>`).',
  },
  UPSTREAM_ORIGIN: {
    type: setting.origin(),
    shown: 'origin of `UPSTREAM_URL`',
    description: 'The `Origin` sent on POSTs, for the upstream’s CSRF rule: its application host.',
  },
  UPSTREAM_TIMEOUT_MS: {
    type: setting.wholeNumber(100, 300_000),
    default: '10000',
    description:
      'Whole-exchange deadline per upstream call (100–300000). Reads → 504; a send → outcome unknown.',
  },
  ...STORAGE_CONFIG,
  ALLOWED_ORIGINS: {
    type: setting.originList(),
    default: '',
    shown: 'none',
    description: 'Comma list of exact origins of a separately hosted dashboard (CORS with credentials).',
  },
  PUBLIC_URL: {
    type: setting.origin(),
    description:
      'The dashboard’s origin as browsers see it: then the only origin accepted, and requests addressed to another host are refused; `https:` here makes the cookie `__Host-` + `Secure`.',
  },
  TRUST_PROXY: {
    type: setting.trustProxy(),
    default: 'false',
    description:
      'Express `trust proxy`: `true`, a hop count, or addresses (`loopback`, `10.0.0.0/8`, …). Decides client IP (throttling) and scheme/host (same-origin).',
  },
  COOKIE_SECURE: {
    type: setting.oneOf(['auto', 'true', 'false']),
    default: 'auto',
    description:
      '`auto`: `__Host-rd_session` + `Secure` when the request came over HTTPS (or `PUBLIC_URL` is https), else `rd_session`. `true`/`false` force it.',
  },
  ADMIN_EMAIL: {
    type: z.email({ error: 'must be a valid email address' }).toLowerCase(),
    description:
      'With `ADMIN_PASSWORD` (both or neither): when no user exists, the first start creates this owner.',
  },
  ADMIN_PASSWORD: {
    type: z.string().min(PASSWORD_MIN, { error: `must be at least ${PASSWORD_MIN} characters` }),
    description: 'The first owner’s password (see `ADMIN_EMAIL`).',
  },
  BUSINESS_NAME: {
    type: setting.text(),
    description: 'Shown by `/auth/me` as the business the key belongs to (`null` if unset).',
  },
  FREQUENCY_CAP_DAYS: {
    type: setting.wholeNumber(0, 3650),
    default: String(FREQUENCY_CAP_DAYS_DEFAULT),
    description:
      'Sent in `/auth/me` settings: the window in which the send form warns about an earlier request to the same contact; `0`: no cap, no warning.',
  },
  USER_RATE_LIMIT_PER_MINUTE: {
    type: setting.wholeNumber(0, 1_000_000),
    default: '60',
    description:
      'Each signed-in user’s share of the upstream calls (GCRA, counted in the BFF’s database, so every worker shares it): kept below the API key’s own limit (120/min by default), so one runaway tab or script cannot use up the key for everyone. Over it: 429 `user_rate_limited` with `Retry-After`; `0`: no per-user limit.',
  },
  ...ROLE_CONFIG,
  WEB_DIST_DIR: { type: setting.text(), default: 'apps/web/dist', description: 'The dashboard’s build.' },
  SESSION_IDLE_MINUTES: {
    type: setting.decimal(0.01, 1_000_000),
    default: '60',
    description: 'A session ends after this long without a request.',
  },
  SESSION_ABSOLUTE_HOURS: {
    type: setting.decimal(0.001, 1_000_000),
    default: '12',
    description: '…and this long after sign-in, whatever the activity.',
  },
  IDEMPOTENCY_RETENTION_HOURS: {
    // A key is remembered at least 24 h, so a retry the next morning is still caught.
    type: setting.decimal(24, 24 * 365),
    default: '72',
    shown: '`72` (at least 24)',
    description: 'How long an Idempotency-Key (and its replayable answer) is remembered.',
  },
  SEND_HISTORY_DAYS: {
    type: setting.wholeNumber(1, 3650),
    default: '180',
    shown: '`180` (≥ `FREQUENCY_CAP_DAYS`, ≥ the retention)',
    description:
      'How long send history is kept for the list and the contact warning; it holds the Idempotency-Keys, so it covers `IDEMPOTENCY_RETENTION_HOURS`.',
  },
  BFF_WORKERS: {
    type: z
      .string()
      .regex(/^(auto|\d+)$/, { error: 'must be auto or a whole number' })
      .transform((v) => (v === 'auto' ? Math.max(1, Math.min(availableParallelism(), 8)) : Number(v)))
      .pipe(z.number().min(1, { error: 'must be at least 1' }).max(64, { error: 'must be at most 64' })),
    default: '1',
    description: '`node:cluster` workers on one port (`auto`: one per core, at most 8).',
  },
  ALERT_POLL_SECONDS: {
    type: setting.wholeNumber(1, 86_400),
    default: '120',
    description:
      'How often each location’s newest reviews are read for low-rating alerts (1–86400); 429s and errors back off from this.',
  },
  BFF_SMTP_URL: {
    type: z.string().regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' }),
    description:
      '`smtp://user:pass@host:587` or `smtps://…:465`: alerts and digests by email. Unset: alerts stay in the dashboard’s bell.',
  },
  BFF_SMTP_FROM: {
    type: z.string().min(3, { error: 'must be a sender such as Review Desk <alerts@example.com>' }),
    default: 'Review Desk <alerts@example.com>',
    description: 'Sender of alert and digest emails.',
  },
  BFF_DEV_HOOKS: {
    type: setting.bool(),
    default: '0',
    description:
      '`1` runs scheduled work (alerts, digests, list sends’ waits and daily caps) on a clock that `POST /dev/clock` moves (tests, demos; docs/alerts.md). Refused with `NODE_ENV=production`, with `BFF_SMTP_URL`, and beside an upstream that is not a development service (one whose dev clock or dev outbox does not answer).',
  },
  NODE_ENV: {
    type: setting.text(),
    shown: 'none',
    description: '`production` refuses `BFF_DEV_HOOKS=1`.',
  },
  ...BULK_CONFIG,
  ...setting.OPERATION_VARIABLES,
});

/** An API key read from a file (its one word, surrounding blank space dropped); `what` names the source. */
export function readKeyFile(file: string, what = 'UPSTREAM_API_KEY_FILE'): string {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw setting.configError(what, `${what}: cannot read ${file} (${code})`);
  }
  return keyFromText(content, `${what}: ${file}`, what);
}

/** The one rule for a key given as text: one word, not empty. */
export function keyFromText(content: string, source: string, variable: string): string {
  const key = content.trim();
  if (key === '') throw setting.configError(variable, `${source} is empty`);
  if (/\s/.test(key)) throw setting.configError(variable, `${source} holds more than one word`);
  return key;
}

export type Config = ReturnType<typeof loadConfig>;

/** Where a location's calls go: its upstream's URL, its key and how the key and Origin are sent. */
export type Upstream = {
  url: URL;
  key: string;
  authScheme: (typeof AUTH_SCHEMES)[number];
  /** Sent as Origin on POSTs so the upstream's browser-style CSRF rule passes. */
  origin: string;
  timeoutMs: number;
};

/** Reads an environment (process.env by default); throws a StartupError naming a bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const { values: env } = setting.parseEnv(BFF_CONFIG, source);
  // Without UPSTREAM_URL the stored locations are the only ones (checked at start: main.ts).
  const keyGiven = env.UPSTREAM_API_KEY !== undefined || env.UPSTREAM_API_KEY_FILE !== undefined;
  if (env.UPSTREAM_URL !== undefined && !keyGiven)
    throw setting.configError(
      'UPSTREAM_API_KEY',
      'UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE is required with UPSTREAM_URL (the API key the BFF sends upstream)',
    );
  if (env.UPSTREAM_URL === undefined && keyGiven)
    throw setting.configError(
      env.UPSTREAM_API_KEY !== undefined ? 'UPSTREAM_API_KEY' : 'UPSTREAM_API_KEY_FILE',
      'needs UPSTREAM_URL, the upstream the key is for',
    );
  if (env.UPSTREAM_API_KEY !== undefined && env.UPSTREAM_API_KEY_FILE !== undefined)
    throw setting.configError(
      'UPSTREAM_API_KEY',
      'set only one of UPSTREAM_API_KEY and UPSTREAM_API_KEY_FILE',
    );
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined))
    throw setting.configError(
      'ADMIN_EMAIL',
      'ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither',
    );
  if (env.SESSION_IDLE_MINUTES > env.SESSION_ABSOLUTE_HOURS * 60)
    throw setting.configError('SESSION_IDLE_MINUTES', 'must not exceed SESSION_ABSOLUTE_HOURS');
  if (env.SEND_HISTORY_DAYS < env.FREQUENCY_CAP_DAYS)
    throw setting.configError(
      'SEND_HISTORY_DAYS',
      'must be at least FREQUENCY_CAP_DAYS (the send form warns from the history)',
    );
  // The history's rows hold the keys: cleaning them earlier would let a retry send twice.
  const retentionDays = Math.ceil(env.IDEMPOTENCY_RETENTION_HOURS / 24);
  if (env.SEND_HISTORY_DAYS < retentionDays)
    throw setting.configError(
      'SEND_HISTORY_DAYS',
      `must be at least ${retentionDays} to keep Idempotency-Keys as long as IDEMPOTENCY_RETENTION_HOURS=${env.IDEMPOTENCY_RETENTION_HOURS}`,
    );
  refuseDevHooks({ devHooks: env.BFF_DEV_HOOKS, nodeEnv: env.NODE_ENV, smtpUrl: env.BFF_SMTP_URL });
  const keyFile =
    env.UPSTREAM_API_KEY_FILE === undefined ? undefined : resolveFrom(REPO_ROOT, env.UPSTREAM_API_KEY_FILE);
  const upstream: Upstream | null =
    env.UPSTREAM_URL === undefined
      ? null
      : {
          url: env.UPSTREAM_URL,
          key: env.UPSTREAM_API_KEY ?? readKeyFile(keyFile as string),
          authScheme: env.UPSTREAM_AUTH_SCHEME,
          origin: env.UPSTREAM_ORIGIN ?? env.UPSTREAM_URL.origin,
          timeoutMs: env.UPSTREAM_TIMEOUT_MS,
        };
  return {
    port: env.PORT.port,
    /** A taken port stops the start instead of moving on to the next free one. */
    portExplicit: !env.PORT.orNext,
    host: env.HOST,
    /** The configured upstream (UPSTREAM_URL and its key); null: only stored locations. */
    upstream,
    /** Whole-exchange deadline of every upstream call, whichever location it goes to. */
    upstreamTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
    /** How the configured UPSTREAM_AUTH_SCHEME and UPSTREAM_ORIGIN apply to stored locations without their own. */
    upstreamOrigin: env.UPSTREAM_ORIGIN ?? null,
    ...loadStorageConfig(env),
    allowedOrigins: env.ALLOWED_ORIGINS as readonly string[],
    /** The dashboard's origin as browsers see it, when it is fixed by configuration. */
    publicOrigin: env.PUBLIC_URL ?? null,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    trustProxy: env.TRUST_PROXY,
    businessName: env.BUSINESS_NAME ?? null,
    rolePolicy: rolePolicyOf(env),
    frequencyCapDays: env.FREQUENCY_CAP_DAYS,
    /** Upstream calls per user per minute; 0: no per-user limit. */
    userRatePerMinute: env.USER_RATE_LIMIT_PER_MINUTE,
    webDistDir: resolveFrom(REPO_ROOT, env.WEB_DIST_DIR),
    session: {
      idleMs: Math.round(env.SESSION_IDLE_MINUTES * 60_000),
      absoluteMs: Math.round(env.SESSION_ABSOLUTE_HOURS * 3_600_000),
    },
    idempotencyRetentionMs: Math.round(env.IDEMPOTENCY_RETENTION_HOURS * 3_600_000),
    sendHistoryMs: env.SEND_HISTORY_DAYS * DAY_MS,
    cookieSecure: env.COOKIE_SECURE === 'auto' ? ('auto' as const) : env.COOKIE_SECURE === 'true',
    logLevel: env.LOG_LEVEL as string,
    workers: env.BFF_WORKERS,
    metricsToken: env.METRICS_TOKEN,
    alerts: {
      pollMs: env.ALERT_POLL_SECONDS * 1000,
      smtp: env.BFF_SMTP_URL ? { url: env.BFF_SMTP_URL, from: env.BFF_SMTP_FROM } : null,
    },
    devHooks: env.BFF_DEV_HOOKS,
    bulk: loadBulkConfig(env),
  };
}
