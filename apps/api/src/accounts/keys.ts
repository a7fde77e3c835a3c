import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_SECRET_BYTES,
  DAY_MS,
  SCOPES,
  type Scope,
} from '@review-desk/shared';
import { keyId, sha256Hex } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { BusinessRow } from './businesses-store.ts';
import type { ApiKeyRow } from './keys-store.ts';

// API keys (docs/api.md, "Keys"): `rd_live_` + 32 random bytes, base64url. Only the SHA-256 is
// stored: a leaked database does not leak usable keys, and a 256-bit random secret needs no slow
// hash.

export type AuthenticatedKey = {
  id: string;
  businessId: number;
  scopes: Scope[];
  rateLimitPerMinute: number | null;
  business: BusinessRow;
};

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_SECRET_BYTES).toString('base64url');
}

export function parseScopes(text: string): Scope[] {
  return text.split(',').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
}

export type KeyLookup =
  | { ok: true; key: AuthenticatedKey; row: ApiKeyRow }
  | { ok: false; row: ApiKeyRow | undefined };

/**
 * Finds the key a caller presented. A malformed key is never looked up. The row is found through
 * the hash's index; the hashes are then compared in constant time, so neither step's timing
 * depends on how much of a secret matched.
 */
export async function lookupApiKey(store: Store, presented: string, now: number): Promise<KeyLookup> {
  if (!API_KEY_PATTERN.test(presented)) return { ok: false, row: undefined };
  const hash = sha256Hex(presented);
  const found = await store.keys.byHash(hash);
  const row = found?.key;
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) {
    return { ok: false, row: undefined };
  }
  // Revoked or expired keys get 401, like a missing one (docs/api.md, "Keys").
  if (row.revoked_at !== null && row.revoked_at <= now) return { ok: false, row };
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, row };
  const business = found.business;
  return {
    ok: true,
    row,
    key: {
      id: row.id,
      businessId: row.business_id,
      scopes: parseScopes(row.scopes),
      rateLimitPerMinute: row.rate_limit_per_minute,
      business,
    },
  };
}

export type CreateKeyInput = {
  businessSlug: string;
  scopes: Scope[];
  expiresInDays?: number | undefined;
  rateLimitPerMinute?: number | undefined;
  now: number;
};

export class KeyAdminError extends Error {
  override name = 'KeyAdminError';
}

export async function createApiKey(
  store: Store,
  input: CreateKeyInput,
): Promise<{ key: string; row: ApiKeyRow }> {
  const business = await store.businesses.bySlug(input.businessSlug);
  if (!business) throw new KeyAdminError(`No business with slug "${input.businessSlug}".`);
  if (input.scopes.length === 0) throw new KeyAdminError(`Give at least one scope: ${SCOPES.join(', ')}.`);
  const key = generateApiKey();
  const row = await store.keys.insert({
    id: keyId(),
    businessId: business.id,
    keyHash: sha256Hex(key),
    displayPrefix: key.slice(0, API_KEY_PREFIX.length + 4),
    scopes: [...new Set(input.scopes)],
    rateLimitPerMinute: input.rateLimitPerMinute ?? null,
    createdAt: input.now,
    expiresAt: input.expiresInDays ? input.now + input.expiresInDays * DAY_MS : null,
  });
  return { key, row };
}

export async function revokeApiKey(store: Store, id: string, now: number): Promise<ApiKeyRow> {
  const row = await store.keys.byId(id);
  if (!row) throw new KeyAdminError(`No key with id "${id}".`);
  if (row.revoked_at !== null) throw new KeyAdminError(`Key ${id} is already revoked.`);
  await store.keys.revoke(id, now);
  return (await store.keys.byId(id))!;
}

/**
 * A new key with the same business, scopes, limit and remaining lifetime; the old one is revoked
 * now, or after `graceHours` so a deployment can switch over without a failed call.
 */
export function rotateApiKey(
  store: Store,
  id: string,
  now: number,
  graceHours = 0,
): Promise<{ key: string; row: ApiKeyRow; old: ApiKeyRow }> {
  return store.transaction(async (tx) => {
    await tx.lock('api_key', id);
    const old = await store.keys.byId(id);
    if (!old) throw new KeyAdminError(`No key with id "${id}".`);
    if (old.revoked_at !== null && old.revoked_at <= now) throw new KeyAdminError(`Key ${id} is revoked.`);
    if (old.expires_at !== null && old.expires_at <= now) throw new KeyAdminError(`Key ${id} has expired.`);
    const business = (await store.businesses.byId(old.business_id))!;
    const { key, row } = await createApiKey(store, {
      businessSlug: business.slug,
      scopes: parseScopes(old.scopes),
      rateLimitPerMinute: old.rate_limit_per_minute ?? undefined,
      now,
    });
    if (old.expires_at !== null) await store.keys.setExpires(row.id, old.expires_at);
    if (graceHours > 0) {
      const end = now + graceHours * 3_600_000;
      await store.keys.setExpires(id, old.expires_at === null ? end : Math.min(old.expires_at, end));
    } else {
      await store.keys.revoke(id, now);
    }
    await store.keys.setRotatedTo(id, row.id);
    return { key, row: (await store.keys.byId(row.id))!, old: (await store.keys.byId(id))! };
  });
}

/**
 * When each key was last used, for `key list`. Kept in memory and written in the background at
 * most once a minute, so a read never waits on the database's write lock for bookkeeping.
 */
export function createKeyUsage(store: Store) {
  const pending = new Map<string, number>();
  const written = new Map<string, number>();
  return {
    record(id: string, now: number): void {
      if (now - (written.get(id) ?? 0) > 60_000) pending.set(id, now);
    },
    /** Writes what was recorded; on failure (the database busy or away) kept for next time. */
    async flush(): Promise<void> {
      if (pending.size === 0) return;
      const batch = [...pending];
      pending.clear();
      try {
        await store.transaction(async () => {
          for (const [id, at] of batch) await store.keys.touch(id, at);
        });
        for (const [id, at] of batch) written.set(id, at);
      } catch {
        // Try again at the next flush, unless a newer use was recorded meanwhile.
        for (const [id, at] of batch) if (!pending.has(id)) pending.set(id, at);
      }
    },
  };
}
export type KeyUsage = ReturnType<typeof createKeyUsage>;
