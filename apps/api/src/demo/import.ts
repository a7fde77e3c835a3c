import { readFileSync } from 'node:fs';
import { REVIEW_TEXT_MAX, ratingSchema, reviewStatusSchema, SYNCED_PLATFORMS } from '@review-desk/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { requireBusiness } from '../accounts/businesses.ts';
import type { NewReview } from '../reviews/store.ts';
import type { Store } from '../store/index.ts';
import { notifyWebsiteChange } from '../widget/changes.ts';
import { loadReviews } from './load.ts';

// Synced reviews: imported from external networks, reported apart from requests (docs/api.md,
// "Analytics"). A file is JSON (an array, or {reviews: [...]}) or CSV with a header row, in the
// review item's field names. Every row is checked first: one bad row imports nothing and names the
// row. A row whose (platform, external_id) is already stored changes that review when its rating,
// status or reply differs (the platform's review was edited or answered: a review.updated event,
// written in the change's transaction) and is skipped otherwise, so re-importing a file is safe.
// A field the row leaves out keeps its stored value.

const optionalText = (max: number) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max).optional());

export const importRowSchema = z
  .object({
    rating: z.preprocess(
      (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      ratingSchema,
    ),
    platform: z.enum(SYNCED_PLATFORMS, { error: `platform must be one of ${SYNCED_PLATFORMS.join(', ')}` }),
    review_date: z
      .string({ error: 'review_date is required (ISO 8601, e.g. 2024-05-01 or 2024-05-01T10:00:00Z)' })
      .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
        error: 'review_date must be an ISO 8601 date, e.g. 2024-05-01 or 2024-05-01T10:00:00Z',
      }),
    response_status: z.preprocess((v) => (v === '' ? undefined : v), z.optional(reviewStatusSchema)),
    status: z.preprocess((v) => (v === '' ? undefined : v), z.optional(reviewStatusSchema)),
    author_name: optionalText(200),
    text: optionalText(REVIEW_TEXT_MAX),
    response_text: optionalText(REVIEW_TEXT_MAX),
    external_id: optionalText(200),
  })
  .strip();

export class ImportError extends Error {
  override name = 'ImportError';
}

export function readImportFile(file: string): unknown[] {
  const content = readFileSync(file, 'utf8');
  const trimmed = content.trimStart();
  if (file.toLowerCase().endsWith('.json') || trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch (error) {
      throw new ImportError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    const rows = Array.isArray(data) ? data : (data as { reviews?: unknown })?.reviews;
    if (!Array.isArray(rows))
      throw new ImportError(`${file}: expected an array of reviews or {"reviews": [...]}`);
    return rows;
  }
  try {
    return parseCsv(content, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as unknown[];
  } catch (error) {
    throw new ImportError(`${file} is not valid CSV: ${(error as Error).message}`);
  }
}

export async function importReviews(
  store: Store,
  businessSlug: string,
  rows: unknown[],
  now: number,
): Promise<{ imported: number; updated: number; skipped: number }> {
  const business = await requireBusiness(store, businessSlug);
  const problems: string[] = [];
  const reviews: NewReview[] = [];
  const changes: Parameters<Store['reviews']['change']>[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const [i, input] of rows.entries()) {
    const parsed = importRowSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(`row ${i + 1}: ${issue.path.join('.') || 'row'}: ${issue.message}`);
      continue;
    }
    const r = parsed.data;
    if (r.external_id) {
      const key = `${r.platform}:${r.external_id}`;
      if (seen.has(key)) {
        skipped++;
        continue;
      }
      seen.add(key);
      const stored = await store.reviews.byExternal(business.id, r.platform, r.external_id);
      if (stored) {
        const to = {
          rating: r.rating,
          status: r.response_status ?? r.status ?? stored.status,
          responseText: r.response_text ?? stored.response_text,
        };
        const same =
          to.rating === stored.rating &&
          to.status === stored.status &&
          to.responseText === stored.response_text;
        if (same) skipped++;
        else changes.push([stored.id, to]);
        continue;
      }
    }
    reviews.push({
      businessId: business.id,
      rating: r.rating,
      status: r.response_status ?? r.status ?? 'pending',
      authorName: r.author_name ?? null,
      text: r.text ?? null,
      reviewAt: Date.parse(r.review_date.length === 10 ? `${r.review_date}T00:00:00Z` : r.review_date),
      responseText: r.response_text ?? null,
      platform: r.platform,
      externalId: r.external_id ?? null,
      requestId: null,
      createdAt: now,
    });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
    throw new ImportError(`Nothing imported; fix these rows:\n${shown.join('\n')}`);
  }
  reviews.sort((a, b) => a.reviewAt - b.reviewAt);
  const imported = await loadReviews(store.db, reviews);
  await store.transaction(async () => {
    for (const [id, to] of changes) {
      const review = await store.reviews.change(id, to);
      await store.events.review('review.updated', business.id, review, now);
    }
  });
  // Their site's figures on the business's widget change (servers on PostgreSQL hear it at once).
  if (imported > 0 || changes.length > 0) await notifyWebsiteChange(store.db, { businessId: business.id });
  return { imported, updated: changes.length, skipped };
}
