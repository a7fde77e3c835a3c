import type { ReplyOutcome, ReviewDetail } from '@review-desk/shared/review-reply';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import ReplyPanel from './reply-panel.tsx';

// The reply panel's words for each outcome, decided on the reply's state (never on its words),
// and the Idempotency-Key of one intent: kept for a retry after a lost answer, new for new words.

afterEach(() => vi.unstubAllGlobals());

const base: ReviewDetail = {
  id: 'rev_41',
  rating: 2,
  response_status: 'responded',
  author_name: 'Ana Ruiz',
  text: 'Slow.',
  review_date: '2030-01-02T10:00:00.000Z',
  response_text: 'Sorry, Ana.',
  platform: 'direct',
  responded_at: '2030-01-03T10:00:00.000Z',
  responded_by: 'owner@example.com',
  version: 4,
  source: { platform: 'direct', requestId: 'req_x', channel: 'email' },
  reply: null,
};
const outcome = (change: Partial<ReplyOutcome>): ReplyOutcome => ({
  action: 'reply',
  to: 'customer',
  state: 'sent',
  channel: 'email',
  text: 'Sorry, Ana.',
  by: 'owner@example.com',
  error: null,
  scheduledFor: null,
  at: '2030-01-03T10:00:00.000Z',
  ...change,
});

function show(review: ReviewDetail, onPost?: (request: Request) => Response | Promise<Response>) {
  const stub = stubFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/reviews/rev_41') return ok(review);
    if (path === '/bff/saved-replies') return ok({ replies: [], builtIn: true });
    if (path === '/bff/review-actions') return ok({ actions: [] });
    if (path === '/api/v1/reviews/rev_41/reply' && onPost) return onPost(request);
    throw new TypeError('network down');
  });
  renderPage(<ReplyPanel id="rev_41" slug={null} businessName="Harbour Street Coffee" />, {
    me: session('owner'),
  });
  return stub;
}

describe('the reply panel', () => {
  it.each([
    [outcome({}), 'Sent to the customer by email'],
    [outcome({ state: 'opted_out' }), 'Saved, not sent: this customer opted out'],
    [
      outcome({ state: 'no_contact', channel: null }),
      'Saved, not sent: this customer’s request was a shared link',
    ],
    [
      outcome({ to: 'google', state: 'posted', channel: null }),
      'Posted on Google — it may take a few minutes to show there',
    ],
    [
      outcome({ to: 'google', state: 'failed', channel: null, error: 'The caller does not have permission' }),
      'Not posted: Google said “The caller does not have permission”',
    ],
    [outcome({ to: 'google', state: 'unknown', channel: null }), 'Unknown: the answer from Google was lost'],
    [
      outcome({ state: 'scheduled', scheduledFor: '2030-01-04T08:00:00.000Z' }),
      'Saved; it goes to the customer by email when sending hours open',
    ],
  ])('says what came of a reply: %#', async (reply, words) => {
    show({ ...base, reply });
    expect(await screen.findByTestId('reply-outcome')).toHaveTextContent(words);
  });

  it('sends a Facebook review to Facebook, named as people write it, and offers Ignore only', async () => {
    const facebook = { platform: 'facebook', requestId: null, channel: null };
    show({
      ...base,
      response_status: 'pending',
      platform: 'facebook',
      source: facebook,
      response_text: null,
    });
    const panel = await screen.findByTestId('reply-panel');
    expect(
      await within(panel).findByText(
        'Reviews from Facebook are answered on Facebook: mark it ignored here once you have.',
      ),
    ).toBeVisible();
    expect(within(panel).queryByLabelText('Your reply')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Ignore' })).toBeVisible();
  });

  it('keeps one Idempotency-Key for one intent across a lost answer, and takes a new one for new words', async () => {
    const keys: string[] = [];
    let answers = 0;
    show({ ...base, response_status: 'pending', response_text: null, responded_at: null }, (request) => {
      keys.push(request.headers.get('idempotency-key') ?? '');
      answers++;
      if (answers === 1) throw new TypeError('connection reset');
      return ok({ ...base, reply: outcome({}) });
    });
    const user = userEvent.setup();
    const panel = await screen.findByTestId('reply-panel');
    const box = within(panel).getByLabelText('Your reply');
    await user.type(box, 'We are sorry.');
    await user.click(within(panel).getByRole('button', { name: 'Send to the customer' }));
    expect(await within(panel).findByTestId('reply-failure')).toHaveTextContent(
      'Could not reach Review Desk',
    );
    await user.click(within(panel).getByRole('button', { name: 'Send to the customer' }));
    expect(await screen.findByTestId('reply-outcome')).toHaveTextContent('Sent to the customer by email');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    await user.clear(within(panel).getByLabelText(/reply/));
    await user.type(within(panel).getByLabelText(/reply/), 'Other words.');
    await user.click(within(panel).getByRole('button', { name: /Send|Replace/ }));
    expect(keys[2]).not.toBe(keys[0]);
  });
});
