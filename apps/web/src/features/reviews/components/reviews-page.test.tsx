import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { currentUrl, renderPage } from '../../../test/render.tsx';
import ReviewsPage from './reviews-page.tsx';

afterEach(() => vi.unstubAllGlobals());

function review(i: number, extra: Record<string, unknown> = {}) {
  return {
    id: `r${i}`,
    rating: (i % 5) + 1,
    response_status: 'pending',
    author_name: `Author ${i}`,
    text: `Text ${i}`,
    review_date: '2025-05-01T10:00:00.000Z',
    response_text: null,
    platform: i % 2 ? 'google' : 'direct',
    ...extra,
  };
}

/** A BFF with `total` reviews that honours page and limit, recording each query. */
function reviewsBff(total: number) {
  return stubFetch((request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const from = (page - 1) * limit;
    const reviews = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) =>
      review(from + i + 1),
    );
    return ok({ page, limit, total, reviews });
  });
}

describe('Reviews page', () => {
  it('reads its filters from the URL and asks the BFF for exactly them', async () => {
    const { calls } = reviewsBff(57);
    const view = renderPage(<ReviewsPage title="Reviews" />, {
      url: '/reviews?status=pending&minRating=4&page=2',
    });
    expect(await screen.findByTestId('page-range')).toHaveTextContent('21–40 of 57');
    const query = new URL(calls[0]!.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({ page: '2', limit: '20', status: 'pending', minRating: '4' });
    expect(screen.getByLabelText('Status')).toHaveValue('pending');
    expect(screen.getByLabelText('Rating')).toHaveValue('4-5');
    expect(currentUrl(view)).toBe('/reviews?status=pending&minRating=4&page=2');
  });

  it('lists a range of ratings: “1–2★” asks for the ratings up to 2', async () => {
    const u = userEvent.setup();
    // A service with the extension: only 1★ and 2★ reviews come back when asked for them.
    const { calls } = stubFetch((request) => {
      const low = new URL(request.url).searchParams.get('maxRating') === '2';
      const reviews = low ? [review(0), review(5), review(1)] : [review(0), review(3), review(4)];
      return ok({ page: 1, limit: 20, total: 3, reviews });
    });
    const view = renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews' });
    await screen.findByTestId('page-range');
    await u.selectOptions(screen.getByLabelText('Rating'), '1–2★');
    await waitFor(() => expect(currentUrl(view)).toBe('/reviews?maxRating=2'));
    await waitFor(() =>
      expect(Object.fromEntries(new URL(calls.at(-1)!.url).searchParams)).toEqual({
        page: '1',
        limit: '20',
        maxRating: '2',
      }),
    );
    expect(screen.getByLabelText('Rating')).toHaveValue('1-2');
    expect(screen.queryByTestId('range-not-offered')).not.toBeInTheDocument();
  });

  it('says so when the review service ignores the highest rating, and shows what it sent', async () => {
    // A deployment without the extension: every rating from the lowest up.
    stubFetch(() => ok({ page: 1, limit: 20, total: 3, reviews: [review(4), review(0), review(1)] }));
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?minRating=1&maxRating=2' });
    expect(await screen.findByTestId('range-not-offered')).toHaveTextContent(
      'This review service does not filter by highest rating: the list shows every rating from 1★ up.',
    );
    expect(screen.getAllByRole('button', { name: /^Details of the review/ })).toHaveLength(3);
  });

  it('asks again without the highest rating when the review service refuses it', async () => {
    const { calls } = stubFetch((request) => {
      const url = new URL(request.url);
      if (url.searchParams.has('maxRating'))
        return fail('validation_failed', 'Unknown parameter: maxRating.', {
          fields: { maxRating: 'Unknown parameter: maxRating.' },
        });
      return ok({ page: 1, limit: 20, total: 2, reviews: [review(1), review(2)] });
    });
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?maxRating=2' });
    expect(await screen.findByTestId('range-not-offered')).toBeInTheDocument();
    expect(await screen.findByTestId('page-range')).toHaveTextContent('of 2');
    expect(screen.queryByTestId('error-state')).not.toBeInTheDocument();
    expect(new URL(calls.at(-1)!.url).searchParams.has('maxRating')).toBe(false);
  });

  it('corrects an out-of-range URL in place and tells the user', async () => {
    const { calls } = reviewsBff(5);
    const view = renderPage(<ReviewsPage title="Reviews" />, {
      url: '/reviews?limit=500&minRating=9&page=0',
    });
    await waitFor(() => expect(currentUrl(view)).toBe('/reviews?minRating=5&limit=100'));
    expect(screen.getByText('The address was corrected')).toBeInTheDocument();
    // Never asked the BFF for an out-of-range query.
    for (const call of calls) {
      const params = new URL(call.url).searchParams;
      expect(Number(params.get('limit'))).toBeLessThanOrEqual(100);
      expect(Number(params.get('minRating'))).toBeLessThanOrEqual(5);
    }
  });

  it('puts a filter change in the URL and starts again from page 1', async () => {
    reviewsBff(57);
    const view = renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?page=3' });
    await screen.findByTestId('page-range');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'responded');
    await waitFor(() => expect(currentUrl(view)).toBe('/reviews?status=responded'));
  });

  it('moves past the last page back to the last page', async () => {
    reviewsBff(25);
    const view = renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?page=9' });
    await waitFor(() => expect(currentUrl(view)).toBe('/reviews?page=2'));
    expect(await screen.findByTestId('page-range')).toHaveTextContent('21–25 of 25');
  });

  it('stops at the API’s stop rule: no Next on the last page', async () => {
    reviewsBff(40);
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?page=2' });
    await screen.findByText('21–40 of 40');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('shows stars with a text alternative, and marks synced reviews', async () => {
    reviewsBff(2);
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews' });
    const rows = await screen.findAllByTestId('review-row');
    expect(within(rows[0]!).getByRole('img', { name: '2 out of 5 stars' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Synced · Google')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Direct')).toBeInTheDocument();
  });

  it('says which filters matched nothing', async () => {
    stubFetch(() => ok({ page: 1, limit: 20, total: 0, reviews: [] }));
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?status=ignored&minRating=5' });
    expect(await screen.findByTestId('reviews-empty')).toHaveTextContent(
      'Nothing matched status “Ignored” and rating 5★ only.',
    );
  });

  it('tells a rate-limited user to wait, with the Retry-After countdown', async () => {
    stubFetch(() =>
      fail(
        'rate_limited',
        'Request limit of this key reached; retry after 45 seconds.',
        {},
        { 'retry-after': '45' },
      ),
    );
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews' });
    const state = await screen.findByTestId('error-state');
    expect(state).toHaveTextContent('Too many requests');
    expect(state).toHaveTextContent(/try again in 4[45] s/);
    expect(within(state).getByRole('button', { name: /Try again in/ })).toBeDisabled();
  });

  it('turns a malformed answer into an error state', async () => {
    stubFetch(() => ok({ page: 1, limit: 20, total: 1, reviews: [{ id: 'x', rating: 9 }] }));
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews' });
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Unreadable answer from the service');
  });

  it('shows every field of a review in the detail panel, unknown ones generically', async () => {
    stubFetch(() =>
      ok({ page: 1, limit: 20, total: 1, reviews: [review(1, { location_id: 'loc-9', tags: ['fast'] })] }),
    );
    renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews' });
    await userEvent.click(await screen.findByRole('button', { name: 'Details of the review by Author 1' }));
    const panel = await screen.findByRole('dialog', { name: 'Review details' });
    expect(within(panel).getByText('Review ID')).toBeInTheDocument();
    expect(within(panel).getByText('location_id')).toBeInTheDocument();
    expect(within(panel).getByText('loc-9')).toBeInTheDocument();
    expect(within(panel).getByText(/"fast"/)).toBeInTheDocument();
  });
});
