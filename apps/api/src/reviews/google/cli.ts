import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AppError } from '@review-desk/server/errors';
import { googleConnectBodySchema, validationFailure } from '@review-desk/shared';
import type { BusinessRow } from '../../accounts/businesses-store.ts';
import type { Store } from '../../store/index.ts';
import { GoogleUsageError } from './cli-usage.ts';
import { connectGoogle } from './connect.ts';
import type { GoogleService } from './service.ts';
import type { GoogleSync } from './sync.ts';

// `google connect|disconnect|status`: an operator connects a business's Google location without
// the dashboard. The refresh token is read from a file (never from the command line, where it
// would land in the shell's history and the process list) and never printed.

export { GoogleUsageError } from './cli-usage.ts';

async function businessOf(store: Store, given: string | undefined): Promise<BusinessRow> {
  if (!given) throw new GoogleUsageError('missing --business');
  const found = /^[0-9]+$/.test(given)
    ? await store.businesses.byId(Number(given))
    : await store.businesses.bySlug(given);
  if (!found) throw new AppError('business_not_found', `No business "${given}".`);
  return found;
}

export async function googleCommand(
  argv: string[],
  deps: { store: Store; google: GoogleService; sync: GoogleSync; now: number },
  out: (line: string) => void,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      business: { type: 'string' },
      account: { type: 'string' },
      location: { type: 'string' },
      'refresh-token-file': { type: 'string' },
    },
  });
  const [verb] = positionals;
  if (verb === 'connect') {
    const business = await businessOf(deps.store, values.business);
    const file = values['refresh-token-file'];
    if (!file) throw new GoogleUsageError('missing --refresh-token-file');
    const parsed = googleConnectBodySchema.safeParse({
      accountId: values.account ?? '',
      locationId: values.location ?? '',
      refreshToken: readFileSync(file, 'utf8').trim(),
    });
    if (!parsed.success) throw new GoogleUsageError(validationFailure(parsed.error).error);
    const row = await connectGoogle(deps.google, deps.sync, business.id, parsed.data, deps.now);
    out(
      `Connected ${business.slug} to Google location accounts/${row.account_id}/locations/${row.location_id}; its first sync is due now.`,
    );
    return;
  }
  if (verb === 'disconnect') {
    const business = await businessOf(deps.store, values.business);
    const removed = await deps.google.connections.disconnect(business.id);
    out(
      removed
        ? `Disconnected ${business.slug} from Google.`
        : `${business.slug} was not connected to Google.`,
    );
    return;
  }
  if (verb === 'status') {
    const businesses = values.business
      ? [await businessOf(deps.store, values.business)]
      : await deps.store.businesses.list();
    for (const business of businesses) {
      const row = await deps.google.connections.get(business.id);
      if (!row) {
        if (values.business) out(`${business.slug}: not connected`);
        continue;
      }
      const sync =
        row.last_sync_at === null ? 'never synced' : `last sync ${new Date(row.last_sync_at).toISOString()}`;
      out(
        `${business.slug}: accounts/${row.account_id}/locations/${row.location_id} ${row.state}${row.problem ? ` (${row.problem})` : ''}, ${sync}${row.last_error ? `, last error: ${row.last_error}` : ''}`,
      );
    }
    return;
  }
  throw new GoogleUsageError(
    verb ? `unknown google command: ${verb}` : 'google needs connect, disconnect or status',
  );
}
