import type { GoogleCall } from '../google/client.ts';
import type { ConnectionRow } from '../google/connections.ts';
import type { GoogleService } from '../google/service.ts';
import type { ReplyRow, ReviewRecord } from './store.ts';

// A reply to a Google review is posted to Google (accounts.locations.reviews.updateReply), and a
// withdrawal deletes it there (deleteReply). The intent is written `posting` before the call; the
// call's result settles it: posted (the review is `responded` only now), failed with Google's own
// words (the review stays as it was), or unknown when the answer was lost — the call may have
// reached Google, so it is never made again by itself: the user chooses to try again.

export type GoogleOutcome =
  | { state: 'posted' | 'withdrawn'; at: number | null }
  | { state: 'failed' | 'unknown'; error: string };

function outcomeOf(
  result: GoogleCall<unknown>,
  done: 'posted' | 'withdrawn',
  at: number | null,
): GoogleOutcome {
  switch (result.kind) {
    case 'ok':
      return { state: done, at };
    case 'refused':
      // 404: Google has no such review (deleted there, or imported here rather than synced).
      return {
        state: 'failed',
        error:
          result.status === 404
            ? `Google does not have this review (it was deleted on Google, or imported rather than synced): ${result.message}`
            : result.message,
      };
    case 'unreachable':
      // Nothing reached Google: definitely not posted.
      return { state: 'failed', error: `${result.message} Nothing was posted.` };
    case 'lost':
      return { state: 'unknown', error: result.message };
  }
}

/** Makes the intent's call to Google and says what came of it (recording is the caller's). */
export async function callGoogle(
  google: GoogleService,
  connection: ConnectionRow,
  intent: ReplyRow,
  record: ReviewRecord,
): Promise<GoogleOutcome> {
  const reviewId = record.external_id as string;
  const { account_id: account, location_id: location } = connection;
  if (intent.action === 'withdraw') {
    const result = await google.withAccess(connection, (token) =>
      google.client.deleteReply(token, account, location, reviewId),
    );
    return outcomeOf(result, 'withdrawn', null);
  }
  const result = await google.withAccess(connection, (token) =>
    google.client.putReply(token, account, location, reviewId, intent.text ?? ''),
  );
  return outcomeOf(result, 'posted', result.kind === 'ok' ? (result.value.updateTime ?? null) : null);
}
