import type { ReviewDetail } from '@review-desk/shared/review-reply';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import InboxPage from './inbox-page.tsx';

// The inbox against a stand-in for the BFF: the waiting reviews of every location merged oldest
// first, with how long each has waited; filters in the address asking the service for a source
// and a rating range; answering in the panel, in honest words, then the next review; a change
// made meanwhile refused without losing what was written; staff read and do not answer.

afterEach(() => vi.unstubAllGlobals());

const LOCATIONS = [
  { slug: 'harbour', name: 'Harbour' },
  { slug: 'airport', name: 'Airport' },
  { slug: 'mall', name: 'Mall' },
];
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const review = (slug: string, n: number, days: number, platform = 'google') => ({
  id: `rev_${slug.length}${n}`,
  rating: 1,
  response_status: 'pending',
  author_name: `${slug} guest ${n}`,
  text: `Waited ${days} days`,
  review_date: ago(days),
  response_text: null,
  platform,
});

function detail(item: ReturnType<typeof review>, change: Partial<ReviewDetail> = {}): ReviewDetail {
  return {
    ...item,
    response_status: 'pending',
    responded_at: null,
    responded_by: null,
    version: 3,
    source: { platform: item.platform, requestId: null, channel: null },
    reply: null,
    ...change,
  } as ReviewDetail;
}

const LISTS: Record<string, ReturnType<typeof review>[]> = {
  harbour: [review('harbour', 1, 9), review('harbour', 2, 2, 'direct')],
  airport: [review('airport', 1, 5)],
};

function bff(onReply?: (request: Request, slug: string, id: string) => Response | Promise<Response>) {
  return stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/locations') return ok({ locations: LOCATIONS });
    if (url.pathname.endsWith('/bff/saved-replies'))
      return ok({
        replies: [
          { title: 'Sorry', text: 'Sorry, {first_name}. — {business_name}', minRating: 1, maxRating: 2 },
        ],
        builtIn: false,
      });
    if (url.pathname.endsWith('/bff/review-actions')) return ok({ actions: [] });
    const [, , slug, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (slug === 'mall') return fail('upstream_unreachable');
    if (path === '/api/v1/reviews') {
      const list = LISTS[slug as string] ?? [];
      return ok({ page: 1, limit: 50, total: list.length, reviews: list });
    }
    const match = /^\/api\/v1\/reviews\/(rev_\d+)(\/reply)?$/.exec(path);
    const item = match && (LISTS[slug as string] ?? []).find((r) => r.id === match[1]);
    if (item && request.method === 'GET') return ok(detail(item));
    if (item && onReply) return onReply(request, slug as string, item.id);
    return fail('not_found');
  });
}

describe('the inbox', () => {
  it('merges every location’s waiting reviews oldest first, says how long each waited, and names a location it could not read', async () => {
    const { calls } = bff();
    renderPage(<InboxPage title="Inbox" />, { url: '/inbox', me: session('manager') });
    const rows = await screen.findAllByTestId('inbox-row');
    expect(rows.map((r) => within(r).getByText(/guest/).textContent)).toEqual([
      'harbour guest 1',
      'airport guest 1',
      'harbour guest 2',
    ]);
    expect(rows[0]).toHaveTextContent('waiting 9 days');
    expect(rows[0]).toHaveTextContent('Harbour');
    expect(screen.getByTestId('inbox-failed')).toHaveTextContent('Mall');
    expect(screen.getByTestId('inbox-waiting')).toHaveTextContent('3 waiting');
    const query = new URL(calls.find((c) => c.url.includes('/l/harbour/api/v1/reviews'))!.url).search;
    expect(query).toBe('?page=1&limit=50&status=pending&order=oldest');
  });

  it('asks the service for the source and the rating range in the address', async () => {
    const { calls } = bff();
    renderPage(<InboxPage title="Inbox" />, {
      url: '/inbox?source=google&rating=low&location=airport',
      me: session('owner'),
    });
    await screen.findAllByTestId('inbox-row');
    const reads = calls.filter((c) => c.url.includes('/api/v1/reviews'));
    expect(reads.map((c) => new URL(c.url).pathname)).toEqual(['/l/airport/api/v1/reviews']);
    expect(new URL(reads[0]!.url).search).toBe(
      '?page=1&limit=50&status=pending&maxRating=2&platform=google&order=oldest',
    );
  });

  it('answers from the panel in honest words, then opens the next review; the keyboard moves through the list', async () => {
    let posted: unknown;
    bff(async (request, _slug, id) => {
      posted = { id, key: request.headers.get('idempotency-key'), body: await request.json() };
      const item = LISTS.harbour!.find((r) => r.id === id)!;
      return ok(
        detail(item, {
          response_status: 'responded',
          response_text: 'Sorry, harbour. — Harbour',
          version: 5,
          reply: {
            action: 'reply',
            to: 'google',
            state: 'posted',
            channel: null,
            text: 'x',
            by: 'manager@example.com',
            error: null,
            scheduledFor: null,
            at: ago(0),
          },
        }),
      );
    });
    const user = userEvent.setup();
    renderPage(<InboxPage title="Inbox" />, { url: '/inbox', me: session('manager') });
    const [first] = await screen.findAllByTestId('inbox-row');
    first!.focus();
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    const panel = await screen.findByTestId('reply-panel', {}, { timeout: 10_000 });
    expect(panel).toHaveTextContent('posted publicly on Google');
    await user.selectOptions(await within(panel).findByLabelText('Start from a saved reply'), '0');
    expect(within(panel).getByLabelText('Your reply')).toHaveValue('Sorry, harbour. — Harbour');
    await user.click(within(panel).getByRole('button', { name: 'Post on Google' }));
    expect(posted).toMatchObject({
      id: LISTS.harbour![0]!.id,
      body: { text: 'Sorry, harbour. — Harbour', version: 3 },
    });
    expect((posted as { key: string }).key).toMatch(/^[0-9a-f-]{36}$/);
    // The next review (Airport's) is open now.
    expect(await screen.findByText('airport guest 1', { selector: 'dd *, dd' })).toBeInTheDocument();
  });

  it('a change made meanwhile is refused and said, keeping the words written', async () => {
    bff(() => fail('review_changed'));
    const user = userEvent.setup();
    renderPage(<InboxPage title="Inbox" />, { url: '/inbox', me: session('owner') });
    await user.click((await screen.findAllByRole('button', { name: /Answer the review/ }))[0]!);
    const panel = await screen.findByTestId('reply-panel', {}, { timeout: 10_000 });
    await user.type(within(panel).getByLabelText('Your reply'), 'My words');
    await user.click(within(panel).getByRole('button', { name: 'Post on Google' }));
    expect(await within(panel).findByTestId('reply-conflict')).toHaveTextContent(
      'Someone else changed this review',
    );
    expect(within(panel).getByLabelText('Your reply')).toHaveValue('My words');
  });

  it('staff read the review and are told they cannot answer it', async () => {
    bff();
    const user = userEvent.setup();
    renderPage(<InboxPage title="Inbox" />, { url: '/inbox', me: session('staff') });
    await user.click((await screen.findAllByRole('button', { name: /Answer the review/ }))[0]!);
    expect(await screen.findByTestId('reply-read-only', {}, { timeout: 10_000 })).toHaveTextContent(
      'Your role can read reviews but not answer them.',
    );
    expect(screen.queryByTestId('reply-form')).toBeNull();
  });
});
