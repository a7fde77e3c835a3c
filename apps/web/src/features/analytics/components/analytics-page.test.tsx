import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { currentUrl, renderPage, session } from '../../../test/render.tsx';
import AnalyticsPage from './analytics-page.tsx';

// jsdom has no layout: recharts warns that its container measures 0 × 0. The charts' data is
// checked through their tables instead.
const warn = console.warn;
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('of chart should be greater than 0')) return;
    warn(...args);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const FULL = {
  rangeDays: 7,
  from: '2025-06-24',
  to: '2025-06-30',
  reviews: {
    total: 12,
    avgRating: 4.25,
    responded: 5,
    pending: 6,
    ignored: 1,
    responseRate: 5 / 12,
    byRating: { '1': 1, '2': 0, '3': 1, '4': 4, '5': 6 },
  },
  requests: {
    total: 20,
    sent: 18,
    clicked: 10,
    completed: 7,
    reviewLeft: 7,
    feedback: 6,
    handoffs: 2,
    failed: 2,
    byChannel: { sms: 9, email: 5, both: 3, link: 3 },
    clickRate: 10 / 18,
    completionRate: 7 / 18,
  },
  synced: { total: 4, avgRating: 4, byPlatform: { google: 3, facebook: 1, yelp: 0 } },
  daily: Array.from({ length: 7 }, (_, i) => ({
    date: `2025-06-${24 + i}`,
    sent: i,
    completed: Math.floor(i / 2),
    reviews: 1,
    synced: 0,
    avgRating: 4,
  })),
};

function tile(key: string) {
  return screen.getByTestId(`kpi-${key}`);
}

describe('Analytics page', () => {
  it('shows every figure a full deployment sends, with its definition', async () => {
    const { calls } = stubFetch(() => ok(FULL));
    renderPage(<AnalyticsPage title="Analytics" />, { url: '/analytics?days=7', me: session('manager') });
    await screen.findByTestId('kpi-sent');
    expect(new URL(calls[0]!.url).searchParams.get('days')).toBe('7');
    expect(tile('sent')).toHaveTextContent('18');
    expect(tile('completed')).toHaveTextContent('7');
    expect(tile('completionRate')).toHaveTextContent('38.9%');
    expect(tile('avgRating')).toHaveTextContent('4.25');
    expect(tile('synced')).toHaveTextContent('4');
    expect(
      within(tile('completed')).getByRole('button', { name: 'What “Completed” means' }),
    ).toHaveAccessibleDescription(/it is not proof a review was published/);
    expect(screen.queryByText('Not provided by this API')).not.toBeInTheDocument();
    for (const chart of ['chart-trend', 'chart-ratings', 'chart-channels', 'chart-sources']) {
      expect(within(screen.getByTestId(chart)).getByText('Show as a table')).toBeInTheDocument();
    }
    const sources = within(screen.getByTestId('chart-sources'));
    expect(sources.getByText('Through requests').closest('tr')).toHaveTextContent('8');
    expect(sources.getByText('Synced · Google').closest('tr')).toHaveTextContent('3');
  });

  it('tolerates an upstream that gives only completed and reviewLeft: never zeros, never a crash', async () => {
    stubFetch(() => ok({ completed: 3, reviewLeft: 3 }));
    renderPage(<AnalyticsPage title="Analytics" />, { url: '/analytics', me: session('manager') });
    await screen.findByTestId('kpi-completed');
    expect(tile('completed')).toHaveTextContent('3');
    // The same figure under its other name: no second tile saying it again.
    expect(screen.queryByTestId('kpi-reviewLeft')).not.toBeInTheDocument();
    for (const key of ['sent', 'completionRate', 'reviews', 'avgRating', 'synced']) {
      expect(tile(key)).toHaveTextContent('Not provided by this API');
      expect(tile(key)).not.toHaveTextContent(/\b0\b/);
    }
    for (const chart of ['chart-trend', 'chart-ratings', 'chart-channels', 'chart-sources']) {
      expect(screen.getByTestId(chart)).toHaveTextContent('Not provided by this API');
    }
  });

  it('shows the automatic reminders apart when the service reports them, and no tiles when it does not', async () => {
    stubFetch(() => ok({ ...FULL, reminders: { sent: 4, completedAfter: 1 } }));
    const view = renderPage(<AnalyticsPage title="Analytics" />, {
      url: '/analytics',
      me: session('manager'),
    });
    await screen.findByTestId('kpi-remindersSent');
    expect(tile('remindersSent')).toHaveTextContent('Reminders sent');
    expect(tile('remindersSent')).toHaveTextContent('4');
    expect(tile('completedAfterReminder')).toHaveTextContent('Completed after a reminder');
    expect(tile('completedAfterReminder')).toHaveTextContent('1');
    // The request figures are the requests' own: a reminder is not a new request.
    expect(tile('sent')).toHaveTextContent('18');
    view.unmount();

    stubFetch(() => ok(FULL));
    renderPage(<AnalyticsPage title="Analytics" />, { url: '/analytics', me: session('manager') });
    await screen.findByTestId('kpi-completed');
    expect(screen.queryByTestId('kpi-remindersSent')).not.toBeInTheDocument();
  });

  it('reads completed and reviewLeft under requests too, and keeps unknown extra fields harmless', async () => {
    stubFetch(() => ok({ requests: { completed: 5, reviewLeft: 4, somethingNew: 'x' }, trend: [1, 2] }));
    renderPage(<AnalyticsPage title="Analytics" />, { url: '/analytics', me: session('manager') });
    await screen.findByTestId('kpi-completed');
    expect(tile('completed')).toHaveTextContent('5');
    expect(tile('reviewLeft')).toHaveTextContent('Reviews left');
    expect(tile('reviewLeft')).toHaveTextContent('4');
    expect(tile('sent')).toHaveTextContent('Not provided by this API');
  });

  it('shows a rate with nothing to divide as a dash, not 0 %', async () => {
    stubFetch(() =>
      ok({ ...FULL, requests: { ...FULL.requests, sent: 0, completed: 0, completionRate: null } }),
    );
    renderPage(<AnalyticsPage title="Analytics" />, { url: '/analytics', me: session('manager') });
    await screen.findByTestId('kpi-completionRate');
    expect(tile('completionRate')).toHaveTextContent('—');
    expect(tile('completionRate')).not.toHaveTextContent('%');
  });

  it('keeps the window in the URL, corrects it when out of range, and offers a custom window', async () => {
    const { calls } = stubFetch(() => ok({ completed: 1, reviewLeft: 1 }));
    const view = renderPage(<AnalyticsPage title="Analytics" />, {
      url: '/analytics?days=9999',
      me: session('manager'),
    });
    await waitFor(() => expect(currentUrl(view)).toBe('/analytics?days=365'));
    expect(screen.getByText('The address was corrected')).toBeInTheDocument();
    expect(calls.every((c) => Number(new URL(c.url).searchParams.get('days')) <= 365)).toBe(true);

    const u = userEvent.setup();
    await u.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() => expect(currentUrl(view)).toBe('/analytics?days=7'));
    await u.click(screen.getByRole('radio', { name: 'Custom' }));
    const input = screen.getByLabelText('Days (1–365)');
    await u.clear(input);
    await u.type(input, '0');
    await u.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('days must be a whole number from 1 to 365')).toBeInTheDocument();
    await u.clear(input);
    await u.type(input, '45');
    await u.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(currentUrl(view)).toBe('/analytics?days=45'));
  });
});
