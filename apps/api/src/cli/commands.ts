import { parseArgs } from 'node:util';
import { isAppError } from '@review-desk/server/errors';
import { SCOPES, type Scope } from '@review-desk/shared';
import { createBusiness, requireBusiness } from '../accounts/businesses.ts';
import { createApiKey, KeyAdminError, revokeApiKey, rotateApiKey } from '../accounts/keys.ts';
import { rebuildRollups, rollupDrift } from '../analytics/recount.ts';
import { generateData } from '../demo/generate.ts';
import { ImportError, importReviews, readImportFile } from '../demo/import.ts';
import { seedDemo } from '../demo/seed.ts';
import { type Config, loadConfig } from '../env.ts';
import { GOOGLE_USAGE, GoogleUsageError } from '../reviews/google/cli-usage.ts';
import { openStore, type Store } from '../store/index.ts';
import { MIGRATE_USAGE, migrateToPostgresCommand } from './migrate-to-postgres.ts';

// Operator commands: what a hosted service offers in its dashboard (businesses, keys), for a
// deployment without one. Honours DATABASE_URL and DATABASE_PATH; safe to run while the server
// uses the same database (SQLite: WAL). A new key is printed once, alone on the last line of stdout, and nowhere else.

const USAGE = `Usage: npm run cli -w apps/api -- <command>

  business create <slug> <name> [--review-url URL]
  business list
  business suspend <slug> | business resume <slug>
  key create --business <slug> --scopes ${SCOPES.join(',')} [--expires-in-days N] [--rate-limit N]
  key list
  key revoke <id>
  key rotate <id> [--grace-hours N]
  import-reviews <file.json|file.csv> --business <slug>
  seed-demo
  generate --business <slug> --reviews N --requests N [--days N] [--seed N]
  rebuild-rollups
  check-rollups
${GOOGLE_USAGE}
${MIGRATE_USAGE}`;

class UsageError extends Error {
  override name = 'UsageError';
}

function wholeNumber(name: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}`);
  return Number(value);
}

function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`missing ${name}`);
  return value;
}

function parseScopeList(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new UsageError(`--scopes takes a comma list of ${SCOPES.join(', ')}; got ${text}`);
  }
  return scopes as Scope[];
}

const iso = (ms: number | null) =>
  ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function run(
  store: Store,
  argv: string[],
  config: { demoKeyFile: string },
  out: (line: string) => void,
): Promise<void> {
  const now = Date.now();
  const [command, sub, ...rest] = argv;
  const options = {
    business: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in-days': { type: 'string' },
    'rate-limit': { type: 'string' },
    'grace-hours': { type: 'string' },
    'review-url': { type: 'string' },
    reviews: { type: 'string' },
    requests: { type: 'string' },
    days: { type: 'string' },
    seed: { type: 'string' },
  } as const;
  const parse = (args: string[]) => parseArgs({ args, options, allowPositionals: true, strict: true });

  switch (`${command ?? ''} ${['business', 'key'].includes(command ?? '') ? (sub ?? '') : ''}`.trim()) {
    case 'business create': {
      const { positionals, values } = parse(rest);
      const business = await createBusiness(
        store,
        {
          slug: required('<slug>', positionals[0]),
          name: required('<name>', positionals.slice(1).join(' ')),
          reviewUrl: values['review-url'] ?? null,
        },
        now,
      );
      out(
        `Created business ${business.slug} (${business.name})${business.review_url ? ` → ${business.review_url}` : ''}`,
      );
      return;
    }
    case 'business list': {
      const rows = await store.businesses.list();
      out(
        table([
          ['SLUG', 'NAME', 'REVIEW URL', 'SUSPENDED'],
          ...rows.map((b) => [b.slug, b.name, b.review_url ?? '-', iso(b.suspended_at)]),
        ]),
      );
      return;
    }
    case 'business suspend':
    case 'business resume': {
      const business = await requireBusiness(store, required('<slug>', parse(rest).positionals[0]));
      await store.businesses.setSuspended(business.id, sub === 'suspend' ? now : null);
      out(`${sub === 'suspend' ? 'Suspended' : 'Resumed'} business ${business.slug}`);
      return;
    }
    case 'key create': {
      const { values } = parse(rest);
      const { key, row } = await createApiKey(store, {
        businessSlug: required('--business', values.business),
        scopes: parseScopeList(required('--scopes', values.scopes)),
        expiresInDays: wholeNumber('expires-in-days', values['expires-in-days']),
        rateLimitPerMinute: wholeNumber('rate-limit', values['rate-limit']),
        now,
      });
      out(`Created key ${row.id} (${row.display_prefix}…) for ${values.business} with scopes ${row.scopes}`);
      out(
        `Expires: ${iso(row.expires_at)}; rate limit: ${row.rate_limit_per_minute ?? 'default'} per minute`,
      );
      out('Store it now: it is shown only this once.');
      out(key);
      return;
    }
    case 'key list': {
      const rows = await store.keys.list();
      out(
        table([
          ['ID', 'KEY', 'BUSINESS', 'SCOPES', 'LIMIT/MIN', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'],
          ...rows.map((k) => [
            k.id,
            `${k.display_prefix}…`,
            k.business_slug,
            k.scopes,
            String(k.rate_limit_per_minute ?? 'default'),
            iso(k.created_at),
            iso(k.expires_at),
            iso(k.revoked_at),
            iso(k.last_used_at),
          ]),
        ]),
      );
      return;
    }
    case 'key revoke': {
      const row = await revokeApiKey(store, required('<id>', parse(rest).positionals[0]), now);
      out(`Revoked key ${row.id}`);
      return;
    }
    case 'key rotate': {
      const { positionals, values } = parse(rest);
      const grace = wholeNumber('grace-hours', values['grace-hours'], 0) ?? 0;
      const { key, row, old } = await rotateApiKey(store, required('<id>', positionals[0]), now, grace);
      out(
        `Rotated key ${old.id} → ${row.id}; the old key ${grace > 0 ? `stops working at ${iso(old.expires_at)}` : 'is revoked'}`,
      );
      out('Store it now: it is shown only this once.');
      out(key);
      return;
    }
    case 'import-reviews': {
      const { positionals, values } = parse([sub ?? '', ...rest].filter(Boolean));
      const file = required('<file>', positionals[0]);
      const result = await importReviews(
        store,
        required('--business', values.business),
        readImportFile(file),
        now,
      );
      out(
        `Imported ${result.imported} reviews; updated ${result.updated} changed since; skipped ${result.skipped} already imported`,
      );
      return;
    }
    case 'seed-demo': {
      const seeded = await seedDemo(store, { keyFile: config.demoKeyFile, now });
      out(
        `${seeded.created ? 'Seeded' : 'Already seeded:'} business ${seeded.business.slug}; key file ${config.demoKeyFile} ${seeded.keyCreated ? 'written' : 'kept'}`,
      );
      return;
    }
    case 'generate': {
      const { values } = parse([sub ?? '', ...rest].filter(Boolean));
      const business = await requireBusiness(store, required('--business', values.business));
      const started = Date.now();
      const result = await generateData(store, {
        businessId: business.id,
        reviews: wholeNumber('reviews', values.reviews, 0) ?? 0,
        requests: wholeNumber('requests', values.requests, 0) ?? 0,
        days: wholeNumber('days', values.days) ?? 400,
        seed: wholeNumber('seed', values.seed, 0) ?? 1,
        now,
        handoffs: business.review_url !== null,
      });
      out(
        `Generated ${result.requests} requests and ${result.reviews} reviews for ${business.slug} in ${Date.now() - started} ms`,
      );
      return;
    }
    case 'rebuild-rollups': {
      await rebuildRollups(store.db);
      out('Counters and roll-ups rebuilt from the reviews and requests tables');
      return;
    }
    case 'check-rollups': {
      const drift = await rollupDrift(store.db);
      if (drift.length > 0)
        throw new UsageError(`Roll-ups differ from a recount:\n${drift.slice(0, 20).join('\n')}`);
      out('Counters and roll-ups match a recount');
      return;
    }
    default:
      throw new UsageError(
        command ? `unknown command: ${[command, sub].filter(Boolean).join(' ')}` : 'no command',
      );
  }
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const argv = process.argv.slice(2);
if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(argv.length === 0 ? 2 : 0);
}
// Copies the SQLite file into PostgreSQL: opens both databases itself.
if (argv[0] === 'migrate-to-postgres') process.exit(await migrateToPostgresCommand(argv.slice(1), config));
let store: Store;
try {
  store = await openStore(config);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
let code = 0;
try {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  // Loaded only for its own command: the others start as fast as before.
  if (argv[0] === 'google') await (await import('./google.ts')).googleCli(store, config, argv.slice(1), out);
  else await run(store, argv, config, out);
} catch (error) {
  code = 1;
  if (
    error instanceof UsageError ||
    error instanceof GoogleUsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    process.stderr.write(`Error: ${(error as Error).message}\n\n${USAGE}\n`);
    code = 2;
  } else if (
    error instanceof KeyAdminError ||
    error instanceof ImportError ||
    isAppError(error) ||
    (error as { code?: string }).code === 'ENOENT'
  ) {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
  } else {
    process.stderr.write(`Unexpected error: ${(error as Error).stack ?? String(error)}\n`);
  }
} finally {
  await store.close();
}
process.exit(code);
