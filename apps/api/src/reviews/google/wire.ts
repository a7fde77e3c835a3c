import { z } from 'zod';

// Google's wire shapes, as its documentation gives them (Business Profile API v4,
// accounts.locations.reviews; OAuth 2.0's token endpoint). Read loosely: Google adds fields, and
// an unknown one must never fail a sync. The stand-in in the test support speaks the same shapes.

/** The OAuth scope a refresh token must carry for reviews. */
export const BUSINESS_SCOPE = 'https://www.googleapis.com/auth/business.manage';

/** Google's largest page of reviews (accounts.locations.reviews.list `pageSize`). */
export const GOOGLE_PAGE_SIZE = 50;

/** StarRating: ONE…FIVE; STAR_RATING_UNSPECIFIED has no number (such a review is not stored). */
export const STAR_RATINGS: Readonly<Record<string, number>> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** A Timestamp: RFC 3339, Z-normalised, up to nine fractional digits; as epoch milliseconds. */
export const timestampSchema = z.string().transform((value, ctx) => {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  const ms = match
    ? Date.parse(`${match[1]}.${(match[2] ?? '').padEnd(3, '0').slice(0, 3)}${match[3]}`)
    : NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `not an RFC 3339 timestamp: ${value.slice(0, 40)}` });
    return z.NEVER;
  }
  return ms;
});

export const reviewReplySchema = z.looseObject({
  comment: z.string(),
  updateTime: timestampSchema.optional(),
});

export const googleReviewSchema = z.looseObject({
  name: z.string().optional(),
  reviewId: z.string().min(1).max(500),
  reviewer: z
    .looseObject({
      displayName: z.string().optional(),
      isAnonymous: z.boolean().optional(),
      profilePhotoUrl: z.string().optional(),
    })
    .optional(),
  starRating: z.string(),
  comment: z.string().optional(),
  createTime: timestampSchema,
  updateTime: timestampSchema,
  reviewReply: reviewReplySchema.optional(),
});
export type GoogleReview = z.output<typeof googleReviewSchema>;

export const listReviewsSchema = z.looseObject({
  reviews: z.array(googleReviewSchema).optional(),
  averageRating: z.number().optional(),
  totalReviewCount: z.number().optional(),
  nextPageToken: z.string().optional(),
});
export type ListReviews = z.output<typeof listReviewsSchema>;

/** The token endpoint's answer to `grant_type=refresh_token`. */
export const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  token_type: z.string().optional(),
  scope: z.string().optional(),
});

/** The token endpoint's refusal (RFC 6749 §5.2): `invalid_grant` is a revoked or expired refresh token. */
export const tokenErrorSchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

/** Every Google API's refusal: `{error: {code, message, status}}`. */
export const apiErrorSchema = z.looseObject({
  error: z.looseObject({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
  }),
});
