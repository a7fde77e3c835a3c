import {
  CHANNEL_REQUIRES,
  type Channel,
  channelSendsMessage,
  DAY_MS,
  DIRECT_PLATFORM,
  OUTBOX_FAULTS,
  type ReviewStatus,
} from '@review-desk/shared';
import { randomToken, requestPublicId } from '../ids.ts';
import type { NewReview } from '../reviews/store.ts';
import type { Store } from '../store/index.ts';
import { type LoadedRequest, loadRequests, loadReviews, withIndexesRebuilt } from './load.ts';

// Realistic data in quantity, for the demo and for benchmarks: requests across channels and outcomes
// (sent, clicked, completed by feedback and by hand-off, failed) and reviews on every platform,
// status and rating. A seeded PRNG makes a run repeatable; rows go through the loader (load.ts),
// so counters and roll-ups come out exactly as one-by-one writes would leave them.

export type GenerateOptions = {
  businessId: number;
  /** Requests created over the window. */
  requests: number;
  /** Reviews in total: direct ones (from feedback on requests) plus synced ones to make up the rest. */
  reviews: number;
  days: number;
  now: number;
  seed?: number;
  /** Whether the business offers a public review site (hand-offs happen only then). */
  handoffs?: boolean;
};

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Amara',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ivo',
  'Jules',
  'Kemi',
  'Luca',
  'Maya',
  'Nils',
  'Olu',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zeno',
];
const LAST = [
  'Okafor',
  'Schmidt',
  'Dubois',
  'Ivanova',
  'Yılmaz',
  'Haddad',
  'Lindqvist',
  'Tanaka',
  'Novak',
  'Moreau',
  'Adeyemi',
  'Rossi',
  'Patel',
  'Berg',
  'García',
  'Kowalski',
  'Murphy',
  'Silva',
  'Nguyen',
  'Ali',
];

const TEXTS: Record<number, string[]> = {
  5: [
    'Best flat white in town, and the staff remembered my name.',
    'Lovely spot to work for a morning. Fast wifi, friendly team.',
    'The cardamom bun is worth the trip on its own.',
    'Quick service even in the rush hour. Thank you!',
    'Always a warm welcome. Our go-to place on Saturdays.',
  ],
  4: [
    'Great coffee, a bit crowded at lunch.',
    'Very good pastries; the music was a little loud.',
    'Friendly staff and good espresso. Seating is limited.',
    'Nice oat latte. Would love more vegan options.',
  ],
  3: [
    'Coffee was fine, the wait was long.',
    'Decent, but my order came out lukewarm.',
    'Okay overall. Prices went up recently.',
  ],
  2: ['Waited twenty minutes and the order was wrong.', 'Tables were sticky and nobody cleared them.'],
  1: ['Rude at the counter and my card was charged twice.', 'Found a hair in my sandwich. Not coming back.'],
};
const RESPONSES: Record<number, string> = {
  5: 'Thank you so much! See you again soon.',
  4: 'Thanks for the kind words and the tip, we are working on it.',
  3: 'Thanks for telling us. We have shared this with the team.',
  2: 'We are sorry about this. Please ask for the manager on your next visit so we can make it right.',
  1: 'We are very sorry. Please write to us so we can refund you and look into it.',
};

function pickRating(r: number): number {
  if (r < 0.46) return 5;
  if (r < 0.72) return 4;
  if (r < 0.84) return 3;
  if (r < 0.92) return 2;
  return 1;
}

function pickChannel(r: number): Channel {
  if (r < 0.45) return 'sms';
  if (r < 0.7) return 'email';
  if (r < 0.85) return 'both';
  return 'link';
}

function pickStatus(r: number, ageDays: number): ReviewStatus {
  if (ageDays < 3) return r < 0.8 ? 'pending' : 'responded';
  if (ageDays < 21) return r < 0.45 ? 'pending' : r < 0.9 ? 'responded' : 'ignored';
  return r < 0.12 ? 'pending' : r < 0.8 ? 'responded' : 'ignored';
}

/** Loads at least this many rows with the indexes rebuilt afterwards instead of maintained. */
const REBUILD_INDEXES_FROM = 50_000;

export function generateData(
  store: Store,
  options: GenerateOptions,
): Promise<{ requests: number; reviews: number }> {
  const rand = mulberry32(options.seed ?? 20_240_601);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const { now, days, businessId } = options;
  const start = now - days * DAY_MS;
  const withHandoffs = options.handoffs ?? true;

  // Creation times first, sorted, so requests are inserted oldest first like real traffic.
  const createdAt = new Float64Array(options.requests);
  for (let i = 0; i < createdAt.length; i++) createdAt[i] = Math.floor(start + rand() * (now - start));
  createdAt.sort();

  // Feedback left on requests, kept compactly until the reviews are written.
  const feedbackIndex: number[] = [];
  const feedbackRating: number[] = [];
  const feedbackAt: number[] = [];
  const feedbackAuthor: (string | null)[] = [];

  function* requests(): Generator<LoadedRequest> {
    for (let i = 0; i < createdAt.length; i++) {
      const created = createdAt[i]!;
      const channel = pickChannel(rand());
      const first = pick(FIRST);
      const last = pick(LAST);
      const n = Math.floor(rand() * 100_000);
      // A few deliveries fail, through the outbox's own fault hooks (a number ending 0000, a
      // mailbox at fail.example), so the data tells the same story the service would.
      const fails = channelSendsMessage(channel) && rand() < 0.04;
      const messaged = CHANNEL_REQUIRES[channel];
      // US 555 numbers are valid and fictional; the demo keeps to 555-1000…1999 so numbers people
      // type to try the product (e.g. the +14155552671 example) are not already capped.
      // +14155550000 ends in the SMS fault digits.
      const phone = messaged.phone
        ? `+1415555${fails ? OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith : String(1000 + (n % 1000))}`
        : null;
      const emailDomain = fails ? OUTBOX_FAULTS.emailBouncesAtDomain : 'example.com';
      const email = messaged.email
        ? `${first
            .normalize('NFD')
            .replace(/[^a-zA-Z]/g, '')
            .toLowerCase()}.${n}@${emailDomain}`
        : null;
      const partial = channel === 'both' && !fails && rand() < 0.05;
      const request: LoadedRequest = {
        public_id: requestPublicId(),
        token: randomToken(32),
        business_id: businessId,
        channel,
        customer_name: rand() < 0.9 ? `${first} ${last}` : null,
        customer_phone: phone,
        customer_email: email,
        status: fails ? 'failed' : 'sent',
        failed_leg: partial ? 'sms' : null,
        warning: partial
          ? 'SMS: The SMS carrier refused the message. The other delivery was accepted.'
          : null,
        error: fails ? 'Every delivery failed; no message reached the customer.' : null,
        created_at: created,
        clicked_at: null,
        feedback_at: null,
        handoff_at: null,
        completed_at: null,
      };
      if (!fails && rand() < 0.6) {
        const clickedAt = Math.min(now, created + Math.floor(rand() * rand() * 3 * DAY_MS));
        request.clicked_at = clickedAt;
        let rating = 0;
        if (rand() < 0.5) {
          const at = Math.min(now, clickedAt + Math.floor(rand() * 10 * 60_000));
          rating = pickRating(rand());
          request.feedback_at = at;
          feedbackIndex.push(i);
          feedbackRating.push(rating);
          feedbackAt.push(at);
          feedbackAuthor.push(request.customer_name);
        }
        if (withHandoffs && rand() < (rating >= 4 ? 0.45 : 0.25)) {
          request.handoff_at = Math.min(now, clickedAt + Math.floor(rand() * 15 * 60_000));
        }
        const completions = [request.feedback_at, request.handoff_at].filter((t): t is number => t !== null);
        request.completed_at = completions.length > 0 ? Math.min(...completions) : null;
      }
      yield request;
    }
  }

  const review = (
    rating: number,
    at: number,
    platform: string,
    author: string | null,
    requestId: number | null,
    externalId: string | null,
  ): NewReview => {
    const status = pickStatus(rand(), (now - at) / DAY_MS);
    return {
      businessId,
      rating,
      status,
      authorName: author,
      text: rand() < 0.75 ? pick(TEXTS[rating]!) : null,
      reviewAt: at,
      responseText: status === 'responded' ? RESPONSES[rating]! : null,
      platform,
      externalId,
      requestId,
      createdAt: at,
    };
  };

  function* reviews(requestIds: number[]): Generator<NewReview> {
    for (let k = 0; k < feedbackIndex.length; k++) {
      yield review(
        feedbackRating[k]!,
        feedbackAt[k]!,
        DIRECT_PLATFORM,
        feedbackAuthor[k]!,
        requestIds[feedbackIndex[k]!]!,
        null,
      );
    }
    const synced = Math.max(0, options.reviews - feedbackIndex.length);
    for (let i = 0; i < synced; i++) {
      const r = rand();
      const platform = r < 0.6 ? 'google' : r < 0.85 ? 'facebook' : 'yelp';
      const at = Math.floor(start + rand() * (now - start));
      const author = rand() < 0.85 ? `${pick(FIRST)} ${pick(LAST)[0]}.` : null;
      yield review(
        pickRating(rand()),
        at,
        platform,
        author,
        null,
        `${platform}-${options.seed ?? 0}-${businessId}-${i}`,
      );
    }
  }

  const large = <T>(table: string, rows: number, fn: () => Promise<T>) =>
    rows >= REBUILD_INDEXES_FROM ? withIndexesRebuilt(store.db, table, fn) : fn();

  return store.transaction(async () => {
    const ids = await large('requests', options.requests, () => loadRequests(store.db, requests()));
    const inserted = await large('reviews', options.reviews, () => loadReviews(store.db, reviews(ids)));
    return { requests: ids.length, reviews: inserted };
  });
}
