import { AppError } from '@review-desk/server/errors';
import { z } from 'zod';
import type { Store } from '../store/index.ts';
import type { BusinessRow } from './businesses-store.ts';

export const businessInputSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
    error: 'slug must be 1–63 lower-case letters, digits or dashes, not starting or ending with a dash',
  }),
  name: z.string().trim().min(1, { error: 'name must not be empty' }).max(200),
  reviewUrl: z
    .url({ protocol: /^https?$/, error: 'review URL must be an http(s) URL' })
    .max(2000)
    .nullable()
    .default(null),
});
export type BusinessInput = z.input<typeof businessInputSchema>;

export async function createBusiness(store: Store, input: BusinessInput, now: number): Promise<BusinessRow> {
  const parsed = businessInputSchema.safeParse(input);
  if (!parsed.success) throw AppError.validation(parsed.error);
  if (await store.businesses.bySlug(parsed.data.slug)) {
    throw new AppError('business_exists', `A business with slug "${parsed.data.slug}" already exists.`);
  }
  return store.businesses.create({ ...parsed.data, now });
}

export async function requireBusiness(store: Store, slug: string): Promise<BusinessRow> {
  const business = await store.businesses.bySlug(slug);
  if (!business) throw new AppError('business_not_found', `No business with slug "${slug}".`);
  return business;
}
