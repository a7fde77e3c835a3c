import { randomBytes } from 'node:crypto';

// What the Google stand-in holds: locations and their reviews, the OAuth tokens it issued, and
// the faults a test asked for. Times are epoch milliseconds here and RFC 3339 on the wire.

export const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

export type FakeReview = {
  reviewId: string;
  displayName: string | null;
  /** ONE…FIVE, or STAR_RATING_UNSPECIFIED. */
  starRating: string;
  comment: string | null;
  createTime: number;
  updateTime: number;
  reply: { comment: string; updateTime: number } | null;
};

export type NewFakeReview = {
  /** Default: a random one, shaped like Google's. */
  reviewId?: string;
  rating: 1 | 2 | 3 | 4 | 5;
  comment?: string | null;
  displayName?: string | null;
  /** Default: now. */
  createTime?: number;
  reply?: string;
  replyTime?: number;
};

export type Call = {
  kind: 'token' | 'list' | 'reply' | 'delete' | 'other';
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** A reply's comment, as it came. */
  comment?: string;
};

/** What the stand-in does with the next calls of a kind, instead of answering them. */
export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /** Reads the request and never answers (the caller times out). */
  | { kind: 'hang' }
  /** Reads the request, does the work, then cuts the connection: the caller cannot know. */
  | { kind: 'reset' };

type Refresh = { locations: Set<string>; revoked: boolean };
type Access = { refresh: string; expiresAt: number };

export const locationKey = (account: string, location: string) => `${account}/${location}`;

export function createFakeGoogleState(options: {
  clientId: string;
  clientSecret: string;
  now: () => number;
}) {
  const locations = new Map<string, FakeReview[]>();
  const refreshTokens = new Map<string, Refresh>();
  const accessTokens = new Map<string, Access>();
  const faults = new Map<Call['kind'], Fault[]>();
  let tokenTtlSeconds = 3599;
  let sequence = 0;

  const reviewsOf = (account: string, location: string) => {
    const key = locationKey(account, location);
    const found = locations.get(key);
    if (found) return found;
    const list: FakeReview[] = [];
    locations.set(key, list);
    return list;
  };
  /** updateTime moves forward for every change, as Google's list order needs. */
  const tick = () => Math.max(options.now(), ++sequence);

  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    now: options.now,
    locations,
    reviewsOf,
    exists: (account: string, location: string) => locations.has(locationKey(account, location)),

    addReviews(account: string, location: string, reviews: readonly NewFakeReview[]): FakeReview[] {
      const list = reviewsOf(account, location);
      const made = reviews.map((r) => {
        const at = r.createTime ?? options.now();
        const review: FakeReview = {
          reviewId: r.reviewId ?? `AbFvOq${randomBytes(12).toString('base64url')}`,
          displayName: r.displayName === undefined ? `Guest ${list.length + 1}` : r.displayName,
          starRating: STARS[r.rating - 1] as string,
          comment: r.comment ?? null,
          createTime: at,
          updateTime: at,
          reply: r.reply ? { comment: r.reply, updateTime: r.replyTime ?? at } : null,
        };
        list.push(review);
        return review;
      });
      return made;
    },
    find(account: string, location: string, reviewId: string): FakeReview | undefined {
      return locations.get(locationKey(account, location))?.find((r) => r.reviewId === reviewId);
    },
    setReply(review: FakeReview, comment: string | null): void {
      const at = tick();
      review.reply = comment === null ? null : { comment, updateTime: at };
      review.updateTime = at;
    },
    edit(review: FakeReview, change: { rating?: 1 | 2 | 3 | 4 | 5; comment?: string }): void {
      if (change.rating) review.starRating = STARS[change.rating - 1] as string;
      if (change.comment !== undefined) review.comment = change.comment;
      review.updateTime = tick();
    },

    /** A refresh token that may read these locations (`<account>/<location>`). */
    issueRefreshToken(
      granted: readonly string[],
      token = `1//0g${randomBytes(24).toString('base64url')}`,
    ): string {
      refreshTokens.set(token, { locations: new Set(granted), revoked: false });
      return token;
    },
    revoke(refreshToken: string): void {
      const found = refreshTokens.get(refreshToken);
      if (found) found.revoked = true;
      for (const [token, access] of accessTokens)
        if (access.refresh === refreshToken) accessTokens.delete(token);
    },
    /** Every access token issued so far stops working (as an hour going by would). */
    expireAccessTokens(): void {
      for (const access of accessTokens.values()) access.expiresAt = 0;
    },
    setTokenTtl(seconds: number): void {
      tokenTtlSeconds = seconds;
    },
    /** The refresh_token grant: a new access token, or why not (RFC 6749 §5.2). */
    grant(refreshToken: string): { token: string; ttl: number } | { error: string; description: string } {
      const found = refreshTokens.get(refreshToken);
      if (!found || found.revoked)
        return { error: 'invalid_grant', description: 'Token has been expired or revoked.' };
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      accessTokens.set(token, { refresh: refreshToken, expiresAt: options.now() + tokenTtlSeconds * 1000 });
      return { token, ttl: tokenTtlSeconds };
    },
    /** Who an access token lets in: the locations, or why not. */
    bearer(header: string | undefined): Set<string> | 'unauthenticated' {
      const token = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
      const access = token ? accessTokens.get(token) : undefined;
      if (!access || access.expiresAt <= options.now()) return 'unauthenticated';
      const refresh = refreshTokens.get(access.refresh);
      if (!refresh || refresh.revoked) return 'unauthenticated';
      return refresh.locations;
    },

    /** The next `times` calls of this kind get `fault` instead of their answer. */
    fail(kind: Call['kind'], fault: Fault, times = 1): void {
      const queue = faults.get(kind) ?? [];
      for (let i = 0; i < times; i++) queue.push(fault);
      faults.set(kind, queue);
    },
    takeFault(kind: Call['kind']): Fault | undefined {
      return faults.get(kind)?.shift();
    },
    clearFaults(): void {
      faults.clear();
    },
  };
}
export type FakeGoogleState = ReturnType<typeof createFakeGoogleState>;
