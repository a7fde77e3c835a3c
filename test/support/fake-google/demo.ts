import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type FakeGoogle, startFakeGoogle } from './server.ts';
import type { NewFakeReview } from './state.ts';

// The Google stand-in as `npm start`'s demo runs it: one demo location with a few reviews (some
// low, some answered), its replies kept in the data folder so a restart finds them where they
// were, and a description file (address, ids) for the browser tests. Nothing leaves the machine.

export const DEMO_GOOGLE = {
  clientId: 'review-desk-demo.apps.googleusercontent.com',
  clientSecret: 'review-desk-demo-client-secret',
  accountId: '104729358061928374650',
  locationId: '17263548910293847561',
  /** The stand-in issues it and nothing else takes it: a demo token, not a secret. */
  refreshToken: '1//0gDemoRefreshTokenOfTheLocalGoogleStandIn',
} as const;

const HOUR = 3_600_000;

/** The demo location's reviews: fixed ids, so a restart syncs the same ones. */
function demoReviews(now: number): NewFakeReview[] {
  const words: [1 | 2 | 3 | 4 | 5, string, string | undefined][] = [
    [1, 'Waited forty minutes for a flat white, and nobody said sorry.', undefined],
    [2, 'The pastries were stale and the table was sticky.', undefined],
    [5, 'Best cortado in town, and lovely people.', 'Thank you! See you soon.'],
    [4, 'Good coffee, a bit loud at lunchtime.', undefined],
    [1, 'Charged twice for one sandwich.', undefined],
    [3, 'Fine, nothing special.', undefined],
    [5, 'We come every Sunday. Never disappoints.', 'Thank you for being regulars!'],
    [2, 'Oat milk ran out again.', undefined],
  ];
  return words.map(([rating, comment, reply], i) => ({
    reviewId: `AbFvOqDemoReview${String(i + 1).padStart(2, '0')}`,
    rating,
    comment,
    displayName:
      ['Priya N.', 'Tom B.', 'Lena K.', 'Omar S.', 'Jo W.', 'Sam P.', 'Rita M.', 'Ben C.'][i] ?? null,
    createTime: now - (i * 26 + 5) * HOUR,
    ...(reply ? { reply, replyTime: now - (i * 26 + 2) * HOUR } : {}),
  }));
}

type Saved = { replies: Record<string, { comment: string; updateTime: number } | null> };

export type DemoGoogle = { google: FakeGoogle; refreshTokenFile: string; describedIn: string };

/** Starts the stand-in for the demo, its state kept in `dataDir`. */
export async function startDemoGoogle(dataDir: string): Promise<DemoGoogle> {
  const stateFile = path.join(dataDir, 'google-stand-in-state.json');
  let google: FakeGoogle | undefined;
  const save = () => {
    if (!google) return;
    const replies: Saved['replies'] = {};
    for (const review of google.reviewsOf(DEMO_GOOGLE.accountId, DEMO_GOOGLE.locationId))
      replies[review.reviewId] = review.reply;
    writeFileSync(stateFile, JSON.stringify({ replies } satisfies Saved), { mode: 0o600 });
  };
  google = await startFakeGoogle({
    clientId: DEMO_GOOGLE.clientId,
    clientSecret: DEMO_GOOGLE.clientSecret,
    onChange: save,
  });
  const reviews = google.addReviews(DEMO_GOOGLE.accountId, DEMO_GOOGLE.locationId, demoReviews(Date.now()));
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as Saved;
    for (const review of reviews) {
      const reply = saved.replies[review.reviewId];
      if (reply !== undefined) review.reply = reply;
    }
  }
  google.issueRefreshToken([`${DEMO_GOOGLE.accountId}/${DEMO_GOOGLE.locationId}`], DEMO_GOOGLE.refreshToken);
  const refreshTokenFile = path.join(dataDir, 'google-demo-refresh-token');
  writeFileSync(refreshTokenFile, `${DEMO_GOOGLE.refreshToken}\n`, { mode: 0o600 });
  const describedIn = path.join(dataDir, 'google-stand-in.json');
  writeFileSync(
    describedIn,
    JSON.stringify({ url: google.url, accountId: DEMO_GOOGLE.accountId, locationId: DEMO_GOOGLE.locationId }),
    { mode: 0o600 },
  );
  return { google, refreshTokenFile, describedIn };
}
