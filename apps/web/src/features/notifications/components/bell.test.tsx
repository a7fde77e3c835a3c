import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { currentUrl, renderPage, session } from '../../../test/render.tsx';
import Bell from './bell.tsx';

afterEach(() => vi.unstubAllGlobals());

const alert = (id: number, location: string, read: boolean) => ({
  id,
  location,
  locationName: location === 'main' ? 'Harbour Street' : 'Airport',
  reviewId: `rev_${id}`,
  rating: 1,
  author: `Customer ${id}`,
  excerpt: `Cold coffee ${id}`,
  reviewDate: '2026-11-25T10:00:00.000Z',
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  read,
});

function bff() {
  const alerts = [alert(3, 'main', false), alert(2, 'airport', false), alert(1, 'main', true)];
  const reads: unknown[] = [];
  const { calls } = stubFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/bff/locations')
      return ok({
        locations: [
          { slug: 'main', name: 'Harbour Street' },
          { slug: 'airport', name: 'Airport' },
        ],
      });
    if (path === '/bff/alerts/read') {
      const body = (await request.json()) as { ids: number[] };
      reads.push(body);
      for (const a of alerts) if (body.ids.includes(a.id)) a.read = true;
      return ok({ marked: body.ids.length });
    }
    return ok({ unread: alerts.filter((a) => !a.read).length, alerts });
  });
  return { reads, calls };
}

describe('the bell', () => {
  it('shows the unread count; opening it lists the alerts, marks them read and links to each review', async () => {
    const u = userEvent.setup();
    const { reads } = bff();
    const view = renderPage(<Bell />, { url: '/reviews', me: session('staff') });
    const button = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(screen.getByTestId('bell-count')).toHaveTextContent('2');

    await u.click(button);
    const dropdown = await screen.findByRole('dialog', { name: 'Low ratings' });
    const items = within(dropdown).getAllByRole('link', { name: /Customer/ });
    expect(items).toHaveLength(3);
    expect(within(dropdown).getAllByText('New')).toHaveLength(2);
    expect(reads).toEqual([{ ids: [3, 2] }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument());
    expect(screen.queryByTestId('bell-count')).not.toBeInTheDocument();

    // Another location's review is a full load of its address; this location's, a route change.
    expect(items[1]).toHaveAttribute('href', '/l/airport/reviews?review=rev_2');
    await u.click(items[0]!);
    expect(currentUrl(view)).toBe('/reviews?review=rev_3');
  });

  it('says so when there is nothing, and links to the settings', async () => {
    const u = userEvent.setup();
    stubFetch(async (request) =>
      new URL(request.url).pathname === '/bff/locations'
        ? ok({ locations: [{ slug: 'main', name: 'Main' }] })
        : ok({ unread: 0, alerts: [], enabled: true, threshold: 2 }),
    );
    const view = renderPage(<Bell />, { url: '/reviews' });
    await u.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(
      await screen.findByText(/No low ratings \(2★ or lower\) since your alerts were turned on/),
    ).toBeInTheDocument();
    await u.click(screen.getByRole('link', { name: 'Notification settings' }));
    expect(currentUrl(view)).toBe('/notifications');
  });

  it('says plainly when the user’s alerts are off, and turns them on in one click', async () => {
    const u = userEvent.setup();
    let enabled = false;
    const saved: unknown[] = [];
    const preferences = { threshold: 2, channel: 'in_app', timeZone: 'Europe/Paris', digest: false };
    stubFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/bff/locations') return ok({ locations: [{ slug: 'main', name: 'Main' }] });
      if (path === '/bff/notifications/preferences') {
        if (request.method === 'PUT') {
          const body = (await request.json()) as { enabled: boolean };
          saved.push(body);
          enabled = body.enabled;
        }
        return ok({
          preferences: { ...preferences, enabled },
          emailConfigured: false,
          digestAllowed: false,
          saved: request.method === 'PUT',
        });
      }
      return ok({ unread: 0, alerts: [], enabled, threshold: 2 });
    });
    renderPage(<Bell />, { url: '/reviews', me: session('staff') });
    await u.click(await screen.findByRole('button', { name: 'Notifications' }));
    const off = await screen.findByTestId('alerts-off');
    expect(off).toHaveTextContent('Your alerts are off: a low rating does not show here.');
    await u.click(within(off).getByRole('button', { name: 'Turn alerts on' }));
    await waitFor(() => expect(screen.queryByTestId('alerts-off')).not.toBeInTheDocument());
    // Their other choices are kept.
    expect(saved).toEqual([{ ...preferences, enabled: true }]);
    expect(await screen.findByText(/No low ratings/)).toBeInTheDocument();
  });
});
