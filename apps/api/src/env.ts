import * as setting from '@review-desk/server/config';
import { REPO_ROOT, resolveFrom } from '@review-desk/server/files';
import {
  FREQUENCY_CAP_DAYS_DEFAULT,
  QUIET_HOURS_DEFAULT,
  REMINDER_AFTER_DAYS_MAX,
  sendWindowTextSchema,
  TIME_ZONE_DEFAULT,
  timeZoneSchema,
} from '@review-desk/shared';
import { z } from 'zod';

// The only reader of process.env: the service's configuration table. Every variable has a
// default so `npm start` works on a fresh machine; a bad value stops the start with one line
// naming the variable. The README's table is generated from this one (npm run docs:config).

export const API_CONFIG = setting.defineConfig({
  ...setting.listenVariables(4000),
  DATABASE_PATH: {
    type: setting.text(),
    default: 'data/api.db',
    description:
      'SQLite file, or `:memory:`. Its folder is created readable by this user only (0700), the files 0600.',
  },
  PUBLIC_ORIGIN: {
    type: setting.origin(),
    shown: '`http://HOST:PORT` as bound',
    description:
      'Origin customers and callers reach the service at: review links are built on it and the POST Origin rule accepts it. Set it behind a proxy (`https://reviews.example.com`).',
  },
  ALLOWED_ORIGINS: {
    type: setting.originList(),
    default: '',
    shown: 'none',
    description:
      'Comma list of further origins accepted by the POST Origin rule (e.g. the BFF’s public origin).',
  },
  CORS_ORIGINS: {
    type: setting.originList(),
    default: '',
    shown: 'none',
    description:
      'Comma list of exact origins allowed to call from a browser (CORS). They are also accepted by the Origin rule.',
  },
  CSRF_EXEMPT_API_KEYS: {
    type: setting.bool(),
    default: 'false',
    description: '`true` exempts POSTs that carry an API key from the Origin rule.',
  },
  FREQUENCY_CAP_DAYS: {
    type: setting.wholeNumber(0, 3650),
    default: String(FREQUENCY_CAP_DAYS_DEFAULT),
    description: 'One request per contact per this many days, per business; `0`: no cap.',
  },
  RATE_LIMIT_PER_MINUTE: {
    type: setting.wholeNumber(0, 1_000_000),
    default: '120',
    description: 'Default per-key limit (a key may have its own); `0` turns rate limiting off for every key.',
  },
  MONTHLY_SEND_ALLOWANCE: {
    type: setting.wholeNumber(0, 1_000_000_000),
    default: '1000',
    description:
      'Requests with a message (SMS, email, both) a business may send per calendar month (UTC); `0` is unlimited.',
  },
  QUIET_HOURS: {
    type: sendWindowTextSchema,
    default: QUIET_HOURS_DEFAULT,
    description:
      'Sending window on the business’s wall clock, `HH:MM-HH:MM`, or `off`: an SMS or email asked for outside it is held until it opens. A business’s own settings (`PUT /api/v1/settings`) override it.',
  },
  BUSINESS_TIME_ZONE: {
    type: timeZoneSchema,
    default: TIME_ZONE_DEFAULT,
    description:
      'IANA time zone of the sending window (e.g. `Europe/London`), for businesses that have not set their own.',
  },
  REMINDER_AFTER_DAYS: {
    type: setting.wholeNumber(0, REMINDER_AFTER_DAYS_MAX),
    default: '0',
    description:
      'Days after a request with no click before the one automatic reminder, for businesses that have not set their own; `0`: no reminder.',
  },
  DELIVERY_PROVIDER: {
    type: setting.oneOf(['outbox', 'smtp']),
    default: 'outbox',
    description:
      '`outbox` keeps messages in the database instead of delivering them; `smtp` sends email through `SMTP_URL`.',
  },
  SMTP_URL: {
    type: z.string().regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' }),
    description: '`smtp://user:pass@host:587` or `smtps://…:465`; required with `smtp`.',
  },
  SMTP_FROM: {
    type: z.string().min(3, { error: 'must be a sender such as Review Desk <reviews@example.com>' }),
    default: 'Review Desk <reviews@localhost>',
    description: 'Sender of review request emails.',
  },
  DEV_OUTBOX: {
    type: setting.bool(),
    default: '0',
    description:
      '`1` serves `/dev/outbox` and `/dev/outbox.json` (customers’ contacts and live review links) and turns on the outbox’s fault hooks. Refused with `NODE_ENV=production` or a real delivery provider.',
  },
  SEED_DEMO: {
    type: setting.bool(),
    default: '0',
    description: '`1` creates the demo business, its data and key at start (idempotent).',
  },
  DEMO_KEY_FILE: {
    type: setting.text(),
    default: 'data/demo-api-key',
    description: 'Where the demo key is written (mode 0600).',
  },
  TRUST_PROXY: {
    type: setting.trustProxy(),
    default: 'false',
    description: 'Express `trust proxy`: `true`, a hop count, or addresses/subnets.',
  },
  NODE_ENV: {
    type: setting.text(),
    description: '`production` refuses `DEV_OUTBOX=1`.',
  },
  ...setting.OPERATION_VARIABLES,
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: Record<string, string | undefined>) {
  const { values: e } = setting.parseEnv(API_CONFIG, env);
  if (e.DELIVERY_PROVIDER === 'smtp' && !e.SMTP_URL)
    throw setting.configError(
      'SMTP_URL',
      'is required when DELIVERY_PROVIDER=smtp (e.g. smtp://user:pass@host:587)',
    );
  // The dev outbox shows customers' contacts and its fault hooks fail real sends on purpose.
  if (e.DEV_OUTBOX && e.NODE_ENV === 'production')
    throw setting.configError(
      'DEV_OUTBOX',
      'must be off when NODE_ENV=production (it lists customers’ contacts)',
    );
  if (e.DEV_OUTBOX && e.DELIVERY_PROVIDER !== 'outbox')
    throw setting.configError(
      'DEV_OUTBOX',
      `must be off with a real delivery provider (DELIVERY_PROVIDER=${e.DELIVERY_PROVIDER})`,
    );
  return {
    port: e.PORT.port,
    /** A taken port stops the start instead of moving on to the next free one. */
    portExplicit: !e.PORT.orNext,
    host: e.HOST,
    /** Absolute path, or `:memory:`. */
    databasePath: resolveFrom(REPO_ROOT, e.DATABASE_PATH),
    /** Unset: http://HOST:PORT as actually bound. */
    publicOrigin: e.PUBLIC_ORIGIN,
    allowedOrigins: e.ALLOWED_ORIGINS,
    corsOrigins: e.CORS_ORIGINS,
    csrfExemptApiKeys: e.CSRF_EXEMPT_API_KEYS,
    frequencyCapDays: e.FREQUENCY_CAP_DAYS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    monthlySendAllowance: e.MONTHLY_SEND_ALLOWANCE,
    /** The sending window (null: any hour) and its zone, for businesses without their own settings. */
    quietHours: e.QUIET_HOURS,
    businessTimeZone: e.BUSINESS_TIME_ZONE,
    reminderAfterDays: e.REMINDER_AFTER_DAYS,
    deliveryProvider: e.DELIVERY_PROVIDER,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    devOutbox: e.DEV_OUTBOX,
    seedDemo: e.SEED_DEMO,
    demoKeyFile: resolveFrom(REPO_ROOT, e.DEMO_KEY_FILE),
    logLevel: e.LOG_LEVEL as string,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
  };
}

/** Reads an environment (process.env by default); throws a StartupError naming a bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return toConfig(env);
}

/** Defaults for tests and tools: the same table, with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), port: 0, databasePath: ':memory:', logLevel: 'silent', ...overrides };
}
