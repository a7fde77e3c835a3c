import { z } from 'zod';
import { StartupError } from './startup-error.ts';

// One configuration table per service: each environment variable is declared once — its name,
// a zod type that reads the text, the default (as the text one would set), what it means. The
// table parses the environment (an empty variable counts as unset; a bad one stops the start
// with one line naming it) and writes the README's configuration table (npm run docs:config).

export type Variable = {
  /** Reads the variable's text. Messages say what is wrong as a predicate: "must be …". */
  type: z.core.$ZodType;
  /** The default, written as the text one would set (it is read by `type` like any value). */
  default?: string;
  /** Unset stops the start ("NAME is required"). */
  required?: true;
  /** What it does, for the README. */
  description: string;
  /** What the README shows as the default, when the default is not a plain value. */
  shown?: string;
};

export type ConfigTable = Record<string, Variable>;

type ValueOf<V extends Variable> = V extends { default: string } | { required: true }
  ? z.output<V['type']>
  : z.output<V['type']> | undefined;

export type ConfigValues<T extends ConfigTable> = { [K in keyof T]: ValueOf<T[K]> };

/** Declares a table (the identity, for the types). */
export function defineConfig<const T extends ConfigTable>(table: T): T {
  return table;
}

export type ParsedConfig<T extends ConfigTable> = {
  values: ConfigValues<T>;
  /** The variables the environment set (not empty): a default may behave differently from a choice. */
  set: ReadonlySet<keyof T & string>;
};

/** The one line that stops a start: "Invalid configuration: PORT must be …". */
export function configError(name: string, message: string): StartupError {
  const text = message.includes(name) ? message : `${name} ${message}`;
  return new StartupError(`Invalid configuration: ${text}`, { variable: name });
}

/** Reads `env` through the table. Throws a StartupError naming the first bad variable. */
export function parseEnv<const T extends ConfigTable>(
  table: T,
  env: Record<string, string | undefined>,
): ParsedConfig<T> {
  const values: Record<string, unknown> = {};
  const set = new Set<keyof T & string>();
  for (const [name, variable] of Object.entries(table)) {
    const raw = env[name];
    const given = raw !== undefined && raw.trim() !== '';
    if (given) set.add(name as keyof T & string);
    const text = given ? raw.trim() : variable.default;
    if (text === undefined) {
      if (variable.required) throw configError(name, 'is required');
      values[name] = undefined;
      continue;
    }
    const parsed = z.safeParse(variable.type, text);
    if (!parsed.success) throw configError(name, parsed.error.issues[0]?.message ?? 'is not valid');
    values[name] = parsed.data;
  }
  return { values: values as ConfigValues<T>, set };
}

// --- Types the services' tables share ----------------------------------------------------------

export const text = () => z.string();

export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be a whole number from ${min} to ${max}` })
        .max(max, { error: `must be a whole number from ${min} to ${max}` }),
    );

/**
 * A port to listen on: `8080` is exactly that port (taken: the start stops), `8080+` is 8080 or
 * the next free port after it (what the built-in defaults say), `0` any free port.
 */
export const port = () =>
  z
    .string()
    .regex(/^[0-9]{1,5}\+?$/, {
      error: 'must be a port number from 0 to 65535, or one followed by + (that port or the next free one)',
    })
    .transform((value) => ({ port: Number(value.replace('+', '')), orNext: value.endsWith('+') }))
    .refine((value) => value.port <= 65535, { error: 'must be a port number from 0 to 65535' });

export const decimal = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, { error: `must be a number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const TRUE = ['1', 'true', 'yes', 'on'];
export const bool = () =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'], { error: 'must be 1/0 or true/false' })
    .transform((v) => TRUE.includes(v));

export const oneOf = <const V extends readonly [string, ...string[]]>(values: V) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const logLevel = () => oneOf(LOG_LEVELS);

/** An exact origin, scheme://host[:port] (the form browsers send in Origin); a trailing / is dropped. */
export function parseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin === value.replace(/\/+$/, '') ? url.origin : null;
  } catch {
    return null;
  }
}

export const origin = () =>
  z.string().transform((value, ctx) => {
    const parsed = parseOrigin(value);
    if (parsed !== null) return parsed;
    ctx.addIssue({
      code: 'custom',
      message: `must be an origin like https://reviews.example.com (scheme, host and optional port, no path): got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  });

export const originList = () =>
  z.string().transform((value, ctx) => {
    const origins: string[] = [];
    for (const part of value.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') continue;
      const parsed = parseOrigin(trimmed);
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message: `must list exact origins such as https://app.example.com: "${trimmed}" is not one`,
        });
        return z.NEVER;
      }
      origins.push(parsed);
    }
    return origins;
  });

/** An http(s) URL without credentials, query or fragment (a path prefix is kept). */
export const httpUrl = () =>
  z.string().transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
      return z.NEVER;
    }
    if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials, a query or a fragment' });
      return z.NEVER;
    }
    return url;
  });

/** A PostgreSQL connection URL (postgres:// or postgresql://); its password is never echoed. */
export const postgresUrl = () =>
  z.string().refine(
    (value) => {
      if (!/^postgres(ql)?:\/\//i.test(value)) return false;
      try {
        return new URL(value).hostname !== '' || new URL(value).searchParams.has('host');
      } catch {
        return false;
      }
    },
    { error: 'must be a postgres:// or postgresql:// URL with a host' },
  );

/** Express's `trust proxy`: false, true, a hop count, or addresses/subnets (loopback, 10.0.0.0/8, …). */
export const trustProxy = () =>
  z
    .string()
    .refine(
      (value) =>
        /^(true|false|[0-9]{1,2})$/.test(value) ||
        value
          .split(',')
          .every((part) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+)$/.test(part.trim())),
      { error: 'must be false, true, a hop count, or a comma list of addresses/subnets' },
    )
    .transform((value): boolean | number | string => {
      if (value === 'true') return true;
      if (value === 'false' || value === '0') return false;
      if (/^[0-9]+$/.test(value)) return Number(value);
      return value;
    });

/** A bearer token for /metrics: long enough not to be guessed. */
export const secretToken = () =>
  z
    .string()
    .min(16, { error: 'must be at least 16 characters' })
    .regex(/^\S+$/, { error: 'must not contain whitespace' });

// --- Variables both services have ---------------------------------------------------------------

/** Where a service listens: PORT (its default taken as `<n>+`) and HOST. */
export function listenVariables(defaultPort: number) {
  return {
    PORT: {
      type: port(),
      default: `${defaultPort}+`,
      description: `Port to listen on: \`${defaultPort}\` exactly that port (taken: the start stops with one line), \`${defaultPort}+\` that port or the next free one (the ready line says which), \`0\` any free port.`,
    },
    HOST: {
      type: z.string().min(1, { error: 'must not be empty' }),
      default: '127.0.0.1',
      description: 'Address to listen on.',
    },
  } satisfies ConfigTable;
}

/** How a service is operated: its log level and who may read /metrics. */
export const OPERATION_VARIABLES = {
  LOG_LEVEL: {
    type: logLevel(),
    default: 'info',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  METRICS_TOKEN: {
    type: secretToken(),
    description:
      'Lets a scraper on another host read `/metrics` with `Authorization: Bearer <token>` (at least 16 characters); without it, `/metrics` answers loopback callers only.',
  },
} satisfies ConfigTable;

// --- The README's tables ------------------------------------------------------------------------

const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown table of a service's variables, in the table's order. */
export function configMarkdown(table: ConfigTable): string {
  const rows = Object.entries(table).map(([name, v]) => {
    const shown = v.shown ?? (v.default !== undefined ? `\`${v.default}\`` : v.required ? 'required' : '—');
    return `| \`${name}\` | ${cell(shown)} | ${cell(v.description)} |`;
  });
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const markers = (section: string) => [`<!-- config:${section} -->`, `<!-- /config:${section} -->`] as const;

/** The generated part of a document between `<!-- config:name -->` and `<!-- /config:name -->`. */
export function generatedSection(document: string, section: string): string | null {
  const [open, close] = markers(section);
  const start = document.indexOf(open);
  const end = document.indexOf(close);
  if (start === -1 || end < start) return null;
  return document.slice(start + open.length, end).trim();
}

/** The document with that part replaced by `content`. Throws when the markers are missing. */
export function withGeneratedSection(document: string, section: string, content: string): string {
  const [open, close] = markers(section);
  const start = document.indexOf(open);
  const end = document.indexOf(close);
  if (start === -1 || end < start) throw new Error(`the markers ${open} … ${close} are missing`);
  return `${document.slice(0, start + open.length)}\n${content}\n${document.slice(end)}`;
}
