import { RATING_MAX, RATING_MIN, REPLY_TEXT_MAX } from './limits.ts';
import { z } from './zod.ts';

// Saved replies: a location's ready-made answers, each for a range of ratings, which the reply
// box offers for the review at hand (docs/bff.md, "Saved replies"). Written by owners, used by
// whoever may answer. Placeholders: {first_name} (the reviewer's first name, or "there") and
// {business_name} (the location's name). Until an owner saves some, three built-in ones apply.

export const SAVED_REPLY_PLACEHOLDERS = ['first_name', 'business_name'] as const;
export const SAVED_REPLIES_MAX = 20;
export const SAVED_REPLY_TITLE_MAX = 80;
export const FIRST_NAME_FALLBACK = 'there';

export const BFF_SAVED_REPLIES_PATH = '/bff/saved-replies';

const rating = (field: string) =>
  z
    .number({ error: `${field} must be a whole number from ${RATING_MIN} to ${RATING_MAX}` })
    .check(
      z.int({ error: `${field} must be a whole number from ${RATING_MIN} to ${RATING_MAX}` }),
      z.gte(RATING_MIN, { error: `${field} must be a whole number from ${RATING_MIN} to ${RATING_MAX}` }),
      z.lte(RATING_MAX, { error: `${field} must be a whole number from ${RATING_MIN} to ${RATING_MAX}` }),
    );

/** Placeholders a text names that are not ours (`{customer_name}` is a request's, not a reply's). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => (m[1] as string).trim())
    .filter((name) => !(SAVED_REPLY_PLACEHOLDERS as readonly string[]).includes(name));
}

export const savedReplySchema = /* @__PURE__ */ z
  .strictObject({
    title: z.string({ error: 'title is required' }).check(
      z.trim(),
      z.minLength(1, { error: 'title must not be empty' }),
      z.maxLength(SAVED_REPLY_TITLE_MAX, {
        error: `title must be at most ${SAVED_REPLY_TITLE_MAX} characters`,
      }),
    ),
    text: z.string({ error: 'text is required' }).check(
      z.trim(),
      z.minLength(1, { error: 'text must not be empty' }),
      z.maxLength(REPLY_TEXT_MAX, { error: `text must be at most ${REPLY_TEXT_MAX} characters` }),
      z.refine((text) => unknownPlaceholders(text).length === 0, {
        error: 'text may only use the placeholders {first_name} and {business_name}',
      }),
    ),
    minRating: rating('minRating'),
    maxRating: rating('maxRating'),
  })
  .check(
    z.refine((reply) => reply.minRating <= reply.maxRating, {
      error: 'maxRating must be at least minRating',
      path: ['maxRating'],
    }),
  );
export type SavedReply = z.infer<typeof savedReplySchema>;

/** PUT /bff/saved-replies: the whole list, in the order the reply box offers them. */
export const savedRepliesBodySchema = /* @__PURE__ */ z.strictObject({
  replies: z
    .array(savedReplySchema)
    .check(z.maxLength(SAVED_REPLIES_MAX, { error: `at most ${SAVED_REPLIES_MAX} saved replies` })),
});

/** GET (and PUT) /bff/saved-replies: the location's list; `builtIn` until an owner saves one. */
export const savedRepliesSchema = /* @__PURE__ */ z.object({
  replies: z.array(savedReplySchema),
  builtIn: z.boolean(),
});
export type SavedReplies = z.infer<typeof savedRepliesSchema>;

export const BUILT_IN_SAVED_REPLIES: readonly SavedReply[] = [
  {
    title: 'Sorry, and an invitation',
    text: 'Hi {first_name}, we are sorry your visit fell short. We would like to put it right: please get in touch with us directly. — {business_name}',
    minRating: 1,
    maxRating: 2,
  },
  {
    title: 'Thanks, and we are improving',
    text: 'Thank you for your review, {first_name}. We are glad some things went well and we are working on the rest. — {business_name}',
    minRating: 3,
    maxRating: 3,
  },
  {
    title: 'Thank you',
    text: 'Thank you so much, {first_name}! We are delighted you enjoyed your visit and hope to see you again soon. — {business_name}',
    minRating: 4,
    maxRating: 5,
  },
];

/** The saved replies that fit a review's rating, in their order. */
export function savedRepliesFor(replies: readonly SavedReply[], reviewRating: number): SavedReply[] {
  return replies.filter((r) => r.minRating <= reviewRating && reviewRating <= r.maxRating);
}

/** A saved reply's words for one reviewer: the placeholders filled in. */
export function renderSavedReply(
  text: string,
  values: { authorName: string | null; businessName: string },
): string {
  const first = values.authorName?.trim().split(/\s+/)[0] || FIRST_NAME_FALLBACK;
  return text.replace(/\{\s*(first_name|business_name)\s*\}/g, (_, name: string) =>
    name === 'first_name' ? first : values.businessName,
  );
}
