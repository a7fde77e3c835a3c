import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, makePrivate } from '@review-desk/server/files';
import { DEMO_BUSINESS, SCOPES } from '@review-desk/shared';
import type { BusinessRow } from '../accounts/businesses-store.ts';
import { createApiKey, lookupApiKey } from '../accounts/keys.ts';
import type { Store } from '../store/index.ts';
import { generateData } from './generate.ts';

// SEED_DEMO=1 / `cli seed-demo`: the demo business with ~2,000 reviews over 400 days and ~3,000
// requests, and a key for the local dashboard written to a 0600 file (never printed). Running it
// again changes nothing; a key file holding a valid key of the demo business is kept.

const DEMO_MARKER = 'demo_seeded_at';
export const DEMO_REVIEW_URL = 'https://www.example.com/harbour-street-coffee/write-a-review';
/** The dashboard shares one key among all its users. */
export const DEMO_KEY_RATE_LIMIT = 1200;

export async function seedDemo(
  store: Store,
  options: { keyFile: string; now: number },
): Promise<{ business: BusinessRow; created: boolean; keyCreated: boolean }> {
  const { business, created } = await store.transaction(async (tx) => {
    // Replicas starting together seed once.
    await tx.lock('demo', DEMO_BUSINESS.slug);
    let business = await store.businesses.bySlug(DEMO_BUSINESS.slug);
    if (!business) {
      business = await store.businesses.create({
        slug: DEMO_BUSINESS.slug,
        name: DEMO_BUSINESS.name,
        reviewUrl: DEMO_REVIEW_URL,
        now: options.now,
      });
    }
    if (await store.settings.get(DEMO_MARKER)) return { business, created: false };
    await generateData(store, {
      businessId: business.id,
      requests: 3000,
      reviews: 2000,
      days: 400,
      now: options.now,
      seed: 7,
      handoffs: business.review_url !== null,
    });
    // Their answers to "may the business show it on its website" (docs/widget.md).
    await store.website.consentDemo(business.id);
    await store.settings.set(DEMO_MARKER, new Date(options.now).toISOString());
    return { business, created: true };
  });
  const keyCreated = await ensureDemoKey(store, business, options.keyFile, options.now);
  return { business, created, keyCreated };
}

async function ensureDemoKey(
  store: Store,
  business: BusinessRow,
  keyFile: string,
  now: number,
): Promise<boolean> {
  if (existsSync(keyFile)) {
    makePrivate(keyFile); // an older version may have left it readable by others
    const existing = readFileSync(keyFile, 'utf8').trim();
    const lookup = await lookupApiKey(store, existing, now);
    // A key written by an older version may lack scopes added since (settings:*): a new one replaces it.
    const complete = lookup.ok && SCOPES.every((scope) => lookup.key.scopes.includes(scope));
    if (lookup.ok && lookup.key.businessId === business.id && complete) return false;
  }
  const { key } = await createApiKey(store, {
    businessSlug: business.slug,
    scopes: [...SCOPES],
    rateLimitPerMinute: DEMO_KEY_RATE_LIMIT,
    now,
  });
  ensurePrivateDir(path.dirname(keyFile), 'DEMO_KEY_FILE');
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  makePrivate(keyFile); // an existing file keeps its old mode through writeFileSync
  return true;
}
