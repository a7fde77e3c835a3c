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
import { realProviders } from './delivery/real-providers.ts';
import { twilioConfig } from './delivery/twilio-config.ts';
import { refuseDevHooks } from './env-dev.ts';
import { INTEGRATION_VARIABLES, integrationsConfig } from './integrations/config.ts';
import { GOOGLE_VARIABLES, googleConfig } from './reviews/google/config.ts';

// The only reader of process.env: the service's configuration table. Every variable has a
// default so `npm start` works on a fresh machine; a bad value stops the start with one line
// naming the variable. The README's table is generated from this one (npm run docs:config).

export const API_CONFIG = setting.defineConfig({
  ...setting.listenVariables(4000),
  DATABASE_PATH: {
    type: setting.text(),
    default: 'data/api.db',
    description:
      'SQLite file, or `:memory:`, when `DATABASE_URL` is not set. Its folder is created readable by this user only (0700), the files 0600.',
  },
  DATABASE_URL: {
    type: setting.postgresUrl(),
    shown: 'none (SQLite)',
    description:
      'A `postgres://` URL: the service keeps everything in PostgreSQL instead, shared by every replica (docs/deploy.md). Never logged with its password.',
  },
  DATABASE_POOL_SIZE: {
    type: setting.wholeNumber(1, 100),
    default: '10',
    description: 'PostgreSQL connections per service process.',
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
      'Days after a request before its one automatic reminder to a customer who has not opened the link (`0`: none), for businesses that have not set their own.',
  },
  SMS_PROVIDER: {
    type: setting.oneOf(['outbox', 'twilio']),
    shown: '`outbox`',
    description:
      '`outbox` keeps text messages in the database (with made-up receipts); `twilio` sends them through Twilio (`TWILIO_*`).',
  },
  EMAIL_PROVIDER: {
    type: setting.oneOf(['outbox', 'smtp']),
    shown: '`DELIVERY_PROVIDER`',
    description:
      '`outbox` keeps emails in the database (with made-up receipts); `smtp` sends them through `SMTP_URL`.',
  },
  DELIVERY_PROVIDER: {
    type: setting.oneOf(['outbox', 'smtp']),
    default: 'outbox',
    description: 'The old spelling of `EMAIL_PROVIDER` (used when that is unset): `outbox` or `smtp`.',
  },
  TWILIO_ACCOUNT_SID: {
    type: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, { error: 'must be an Account SID (AC followed by 32 hex digits)' }),
    description: 'Twilio Account SID; required with `SMS_PROVIDER=twilio`.',
  },
  TWILIO_AUTH_TOKEN: {
    type: z.string().min(16, { error: 'must be the account’s Auth Token' }),
    description:
      'Twilio Auth Token: verifies the signature of Twilio’s webhooks, and signs sends unless an API key is given. Required with `twilio`.',
  },
  TWILIO_API_KEY_SID: {
    type: z
      .string()
      .regex(/^SK[0-9a-fA-F]{32}$/, { error: 'must be an API Key SID (SK followed by 32 hex digits)' }),
    description:
      'Optional Twilio API key used for sends instead of the Auth Token (with `TWILIO_API_KEY_SECRET`).',
  },
  TWILIO_API_KEY_SECRET: {
    type: z.string().min(16, { error: 'must be the API key’s secret' }),
    description: 'The secret of `TWILIO_API_KEY_SID`.',
  },
  TWILIO_FROM: {
    type: z.string().regex(/^(\+[1-9][0-9]{6,14}|[A-Za-z0-9 ]{1,11})$/, {
      error: 'must be an E.164 number (+14155550100) or an alphanumeric sender ID',
    }),
    description: 'The Twilio number texts come from; or set `TWILIO_MESSAGING_SERVICE_SID`.',
  },
  TWILIO_MESSAGING_SERVICE_SID: {
    type: z.string().regex(/^MG[0-9a-fA-F]{32}$/, {
      error: 'must be a Messaging Service SID (MG followed by 32 hex digits)',
    }),
    description: 'A Twilio Messaging Service to send through instead of `TWILIO_FROM`.',
  },
  TWILIO_API_BASE: {
    type: setting.httpUrl(),
    default: 'https://api.twilio.com',
    description: 'Where Twilio’s REST API is reached (tests point it at a local stand-in).',
  },
  TWILIO_TIMEOUT_MS: {
    type: setting.wholeNumber(100, 120_000),
    default: '10000',
    description:
      'How long a send waits for Twilio’s answer. After a timeout the text’s outcome is `unknown` and it is never resent automatically.',
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
  ...INTEGRATION_VARIABLES,
  ...GOOGLE_VARIABLES,
  DEV_OUTBOX: {
    type: setting.bool(),
    default: '0',
    description:
      '`1` serves `/dev/outbox` and `/dev/outbox.json` (customers’ contacts and live review links), turns on the outbox’s fault hooks and the dev clock (`/dev/clock`). Refused with `NODE_ENV=production` or a real delivery provider.',
  },
  DEV_CLOCK: {
    type: setting.bool(),
    default: '0',
    description:
      '`1` runs the service on a clock that `POST /dev/clock` moves (`{"set": "2030-01-01T23:00:00Z"}` or `{"advanceMs": 3600000}`), to see sending hours and scheduled sends at work. Refused with `NODE_ENV=production` and beside a provider that reaches customers (SMTP, Twilio other than a stand-in on this machine).',
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
  const emailVariable = e.EMAIL_PROVIDER ? 'EMAIL_PROVIDER' : 'DELIVERY_PROVIDER';
  const emailProvider = e.EMAIL_PROVIDER ?? e.DELIVERY_PROVIDER;
  const smsProvider = e.SMS_PROVIDER ?? 'outbox';
  if (emailProvider === 'smtp' && !e.SMTP_URL)
    throw setting.configError(
      'SMTP_URL',
      `is required when ${emailVariable}=smtp (e.g. smtp://user:pass@host:587)`,
    );
  const twilio = smsProvider === 'twilio' ? twilioConfig(e) : null;
  const providers = { [emailVariable]: emailProvider, SMS_PROVIDER: smsProvider };
  refuseDevHooks({
    devClock: e.DEV_CLOCK,
    devOutbox: e.DEV_OUTBOX,
    nodeEnv: e.NODE_ENV,
    real: realProviders({ emailVariable, emailProvider, smsProvider, twilio }),
    emailVariable,
    emailProvider,
    smsProvider,
  });
  return {
    ...integrationsConfig(e, providers),
    port: e.PORT.port,
    /** A taken port stops the start instead of moving on to the next free one. */
    portExplicit: !e.PORT.orNext,
    host: e.HOST,
    /** Absolute path, or `:memory:`. */
    databasePath: resolveFrom(REPO_ROOT, e.DATABASE_PATH),
    /** A postgres:// URL (DATABASE_URL): every table there instead of the SQLite file. */
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
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
    /** The email provider (EMAIL_PROVIDER, or its old spelling DELIVERY_PROVIDER). */
    deliveryProvider: emailProvider,
    smsProvider: smsProvider as 'outbox' | 'twilio',
    /** Twilio's settings when SMS_PROVIDER=twilio. */
    twilio,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    /** Google Business Profile: where it is reached, the OAuth client, the sync's pace. */
    google: googleConfig(e),
    devOutbox: e.DEV_OUTBOX,
    /** A movable clock and the /dev/clock hook. */
    devClock: e.DEV_CLOCK,
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
  // Any hour: a test about sending hours sets them.
  return {
    ...loadConfig({}),
    port: 0,
    databasePath: ':memory:',
    logLevel: 'silent',
    quietHours: null,
    ...overrides,
  };
}
