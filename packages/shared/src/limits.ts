// The API's limits (docs/api.md, "Limits") and the few bounds it leaves to us. Every app reads its
// numbers here.

/** GET /api/v1/reviews `page`: starts at 1. The upper bound is ours: it keeps page × limit a safe integer. */
export const PAGE_MIN = 1;
export const PAGE_MAX = 1_000_000_000;

/** GET /api/v1/reviews `limit`: default 20, maximum 100. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

/** Ratings are integers 1 to 5; `minRating` takes the same range. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** GET /api/v1/analytics `days`: 1 to 365 (docs/api.md); the default is ours (seed: "not shown"). */
export const DAYS_MIN = 1;
export const DAYS_MAX = 365;
export const DAYS_DEFAULT = 30;

/** Send body bounds (ours; the API names no lengths). 320 is the longest valid email address. */
export const CUSTOMER_NAME_MAX = 200;
export const CUSTOMER_EMAIL_MAX = 320;
/** Longest phone input accepted before parsing (spaces and punctuation included). */
export const CUSTOMER_PHONE_INPUT_MAX = 40;

/** Comment a customer can leave on the review page. */
export const REVIEW_TEXT_MAX = 5000;

/** A business's reply to a review: Google's own limit for a reply (ReviewReply.comment), kept for every review. */
export const REPLY_TEXT_MAX = 4096;

/** Largest JSON body the API and the BFF accept; the send body is far smaller. */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/** Default frequency cap of the embedded service: one request per contact per this many days. */
export const FREQUENCY_CAP_DAYS_DEFAULT = 30;
