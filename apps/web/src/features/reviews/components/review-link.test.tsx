import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { currentUrl, renderPage } from '../../../test/render.tsx';
import ReviewsPage from './reviews-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const review = (id: string, author: string) => ({
  id,
  rating: 1,
  response_status: 'pending',
  author_name: author,
  text: `Text of ${id}`,
  review_date: '2026-11-25T10:00:00.000Z',
  response_text: null,
  platform: 'direct',
});

it('an alert’s link opens its review’s detail on the reviews page', async () => {
  stubFetch(async () =>
    ok({ page: 1, limit: 20, total: 2, reviews: [review('rev_1', 'Ann'), review('rev_2', 'Dana Doe')] }),
  );
  const view = renderPage(<ReviewsPage title="Reviews" />, { url: '/reviews?review=rev_2' });
  const drawer = await screen.findByRole('dialog');
  expect(drawer).toHaveTextContent('Dana Doe');
  expect(drawer).toHaveTextContent('Text of rev_2');
  await waitFor(() => expect(currentUrl(view)).toBe('/reviews'));
});
