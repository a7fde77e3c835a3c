import { ROLE_PERMISSIONS } from '@review-desk/shared/bff';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inboxQueryOptionsForUrl } from '../features/reviews/api/get-inbox.ts';
import { reviewsQueryOptionsForUrl } from '../features/reviews/api/get-reviews.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { ok, stubFetch } from '../test/fetch-stub.ts';
import { startPage } from './start-page.ts';

afterEach(() => vi.unstubAllGlobals());

const me = {
  user: { id: 'u-1', email: 'staff@example.com', role: 'staff' },
  permissions: [...ROLE_PERMISSIONS.staff],
  business: null,
  settings: { frequencyCapDays: 30 },
};
const list = { page: 2, limit: 50, total: 0, reviews: [] };

function bff() {
  return stubFetch((request) => (new URL(request.url).pathname === '/auth/me' ? ok(me) : ok(list)));
}
const paths = (calls: Request[]) => calls.map((c) => `${new URL(c.url).pathname}${new URL(c.url).search}`);

describe('startPage', () => {
  it('asks for the session and the Reviews list of the address at once, as the page will ask', async () => {
    const { calls } = bff();
    const client = createQueryClient();
    startPage({ pathname: '/reviews', search: '?limit=50&page=2&status=pending' }, client);
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(paths(calls).sort()).toEqual([
      '/api/v1/reviews?page=2&limit=50&status=pending',
      '/auth/me',
      '/bff/locations',
    ]);
    const options = reviewsQueryOptionsForUrl(new URLSearchParams('status=pending&page=2&limit=50'));
    await vi.waitFor(() => expect(client.getQueryData(options.queryKey)).toEqual(list));
  });

  it('asks for the inbox’s reviews as soon as the locations answer, before the page’s code has drawn', async () => {
    const { calls } = stubFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/auth/me') return ok(me);
      if (path === '/bff/locations') return ok({ locations: [{ slug: 'main', name: 'Main Street' }] });
      return ok(list);
    });
    const client = createQueryClient();
    await startPage({ pathname: '/inbox', search: '?source=google&rating=low' }, client);
    expect(paths(calls).sort()).toEqual([
      '/auth/me',
      '/bff/locations',
      '/l/main/api/v1/reviews?page=1&limit=50&status=pending&maxRating=2&platform=google&order=oldest',
    ]);
    const options = inboxQueryOptionsForUrl(client, new URLSearchParams('source=google&rating=low'));
    expect(client.getQueryData(options.queryKey)).toMatchObject({ failed: [] });
  });

  it('at / asks for the landing page’s read too (the address it redirects to)', async () => {
    const { calls } = bff();
    startPage({ pathname: '/', search: '' }, createQueryClient());
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(paths(calls).sort()).toEqual(['/api/v1/reviews?page=1&limit=20', '/auth/me', '/bff/locations']);
  });

  it('resolves once the session and the first read have answered, so the first render can draw the page with its data', async () => {
    bff();
    const client = createQueryClient();
    await startPage({ pathname: '/reviews', search: '' }, client);
    expect(client.getQueryData(['auth', 'me'])).toEqual(me);
    expect(client.getQueryData(reviewsQueryOptionsForUrl(new URLSearchParams()).queryKey)).toEqual(list);
  });

  it('resolves, without throwing, when the session is refused', async () => {
    stubFetch(() => new Response(JSON.stringify({ success: false, error: 'Sign in' }), { status: 401 }));
    const client = createQueryClient();
    await expect(startPage({ pathname: '/reviews', search: '' }, client)).resolves.toBeUndefined();
    expect(client.getQueryState(['auth', 'me'])?.status).toBe('error');
  });

  it('asks only for the session and the locations on a page some roles may not open (its data and code wait for the role)', async () => {
    const { calls } = bff();
    // Settled: all it will ask for has been asked.
    await startPage({ pathname: '/analytics', search: '?days=30' }, createQueryClient());
    expect(paths(calls).sort()).toEqual(['/auth/me', '/bff/locations']);
  });

  it('asks for the overview as soon as the session says the role may open the Locations page', async () => {
    const manager = {
      ...me,
      user: { ...me.user, role: 'manager' },
      permissions: [...ROLE_PERMISSIONS.manager],
    };
    const { calls } = stubFetch((request) =>
      new URL(request.url).pathname === '/auth/me' ? ok(manager) : ok({ rows: [], locations: [] }),
    );
    await startPage({ pathname: '/locations', search: '?days=7' }, createQueryClient());
    expect(paths(calls).sort()).toEqual(['/auth/me', '/bff/locations', '/bff/overview?days=7']);
  });

  it('asks for nothing on the sign-in page', async () => {
    const { calls } = bff();
    await startPage({ pathname: '/login', search: '' }, createQueryClient());
    expect(calls).toEqual([]);
  });
});
