import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import LocationsOverviewPage from './locations-overview-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const LOCATIONS = [
  { slug: 'downtown', name: 'Downtown' },
  { slug: 'airport', name: 'Airport' },
  { slug: 'harbour', name: 'Harbour' },
];
// What the BFF answers for the overview: the figures of each location (it fans out itself).
const OVERVIEW = [
  {
    slug: 'downtown',
    name: 'Downtown',
    ok: true,
    sent: 300,
    completed: 30,
    completionRate: 0.1,
    reviews: 300,
    avgRating: 4,
    lowWaiting: 2,
    responded: 150,
    responseRate: 0.5,
    medianFirstReplySeconds: 3 * 3_600,
  },
  {
    slug: 'airport',
    name: 'Airport',
    ok: false,
    error: 'The review service could not be reached.',
    code: 'upstream_unreachable',
  },
  {
    slug: 'harbour',
    name: 'Harbour',
    ok: true,
    sent: 10,
    completed: 9,
    completionRate: 0.9,
    reviews: 3,
    avgRating: 1,
    lowWaiting: 2,
    responded: 3,
    responseRate: 1,
    medianFirstReplySeconds: null,
  },
];

function bff() {
  return stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/locations') return ok({ locations: LOCATIONS });
    if (url.pathname === '/bff/overview') return ok({ rows: OVERVIEW });
    const [, , slug, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (slug === 'airport') return fail('upstream_unreachable');
    if (path === '/api/v1/reviews') {
      return ok({
        page: 1,
        limit: 100,
        total: 2,
        reviews: [
          {
            id: `${slug}-1`,
            rating: 1,
            response_status: 'pending',
            review_date: slug === 'harbour' ? '2026-11-20' : '2026-11-10',
            author_name: `${slug} guest`,
          },
          { id: `${slug}-2`, rating: 5, response_status: 'pending', review_date: '2026-11-24' },
        ],
      });
    }
    return fail('not_found');
  });
}

describe('Locations overview', () => {
  it('shows a row per location, the failing one with its error, and totals weighted by the counts', async () => {
    const { calls } = bff();
    renderPage(<LocationsOverviewPage title="Locations" />, {
      url: '/locations?days=30',
      me: session('manager'),
    });
    const table = await screen.findByTestId('overview-table');
    const rows = within(table).getAllByTestId('overview-row');
    expect(rows.map((r) => r.dataset.slug)).toEqual(['airport', 'downtown', 'harbour']);
    expect(rows[0]).toHaveTextContent('Could not read this location');
    expect(rows[0]).toHaveTextContent('upstream_unreachable');
    const figure = (row: HTMLElement, key: string) =>
      row.querySelector(`[data-figure="${key}"]`)?.textContent;
    expect(figure(rows[1] as HTMLElement, 'completionRate')).toBe('10%');
    expect(figure(rows[1] as HTMLElement, 'lowWaiting')).toBe('2');
    const totals = screen.getByTestId('overview-totals');
    expect(totals).toHaveTextContent('All 2 of 3 locations');
    expect(figure(totals, 'sent')).toBe('310');
    // 39 / 310, not the mean of 10% and 90%.
    expect(figure(totals, 'completionRate')).toBe('12.6%');
    // (300 × 4 + 3 × 1) / 303, not the mean of 4 and 1.
    expect(figure(totals, 'avgRating')).toBe('3.97 ★');
    expect(figure(totals, 'lowWaiting')).toBe('4');
    // 153 / 303 responded, weighed by the counts; a median of medians is never shown.
    expect(figure(rows[1] as HTMLElement, 'medianFirstReplySeconds')).toBe('3 h');
    expect(figure(totals, 'responseRate')).toBe('50.5%');
    expect(figure(totals, 'medianFirstReplySeconds')).toMatch(/^—/);
    expect(calls.map((c) => `${new URL(c.url).pathname}${new URL(c.url).search}`)).toEqual([
      '/bff/overview?days=30',
    ]);
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Downtown' })).toHaveAttribute(
      'href',
      '/l/downtown/analytics',
    );
  });

  it('sorts by a column, and the other way on a second click', async () => {
    bff();
    renderPage(<LocationsOverviewPage title="Locations" />, { url: '/locations', me: session('owner') });
    await screen.findByTestId('overview-table');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Completion rate/ }));
    const order = () => screen.getAllByTestId('overview-row').map((r) => r.dataset.slug);
    expect(order()).toEqual(['harbour', 'downtown', 'airport']);
    await user.click(screen.getByRole('button', { name: /Completion rate/ }));
    expect(order()).toEqual(['downtown', 'harbour', 'airport']);
  });
});
