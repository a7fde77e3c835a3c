import type { RequestLeg } from '@review-desk/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sentRequest } from '../../../../../../test/support/request-record.ts';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import RecentRequestsPage from './recent-requests-page.tsx';

// Recent requests beside what the service knows of each message: the words for each state with
// their definitions, the carrier's reason, and the journal-only view against an API without the
// requests extension.

afterEach(() => vi.unstubAllGlobals());

const entry = (id: string, requestId: string) => ({
  id,
  createdAt: '2026-06-10T12:00:00.000Z',
  finishedAt: '2026-06-10T12:00:01.000Z',
  sentBy: 'staff@example.com',
  channel: 'both',
  customerName: 'Ana Lee',
  contact: '+1 ••• ••• 2671',
  outcome: 'sent',
  httpStatus: 200,
  requestId,
  status: 'sent',
  reviewLink: `http://127.0.0.1:4000/r/${id}`,
  warning: null,
  error: null,
});

const SENDS = { page: 1, limit: 20, total: 2, sends: [entry('s1', 'req_1'), entry('s2', 'req_2')] };
/** A `both` request whose legs Twilio carried, last changed five seconds after the send. */
const record = (id: string, legs: Omit<RequestLeg, 'provider' | 'updatedAt'>[]) =>
  sentRequest(
    id,
    'both',
    legs.map((l) => ({ ...l, provider: 'twilio', updatedAt: '2026-06-10T12:00:05.000Z' })),
  );

function render(requests: (path: string) => Response) {
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/sends') return ok(SENDS);
    return requests(url.pathname + url.search);
  });
  renderPage(<RecentRequestsPage title="Recent requests" />, { url: '/requests', me: session('staff') });
}

describe('Recent requests: delivery of each message', () => {
  it('shows each message’s state in words, with its definition and the carrier’s reason', async () => {
    render(() =>
      ok({
        page: 1,
        limit: 100,
        total: 2,
        requests: [
          record('req_1', [
            { channel: 'sms', state: 'delivered', error: null },
            { channel: 'email', state: 'sent', error: null },
          ]),
          record('req_2', [
            {
              channel: 'sms',
              state: 'undelivered',
              error: 'The phone is switched off or out of reach. (Twilio error 30003)',
            },
            { channel: 'email', state: 'unknown', error: 'Twilio did not answer in time.' },
          ]),
        ],
      }),
    );
    const rows = await screen.findAllByTestId('send-row');
    const first = await within(rows[0] as HTMLElement).findByText('SMS: Delivered');
    expect(first.closest('[title]')).toHaveAttribute(
      'title',
      expect.stringMatching(/reached the customer’s phone/),
    );
    expect(
      within(rows[0] as HTMLElement)
        .getByText('Email: Sent to carrier')
        .closest('[title]'),
    ).toHaveAttribute('title', expect.stringMatching(/Not a delivery receipt/));
    expect(within(rows[1] as HTMLElement).getByText('SMS: Not delivered')).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText(/switched off or out of reach/)).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText('Email: Unknown')).toBeVisible();
    expect(screen.getByText('What the delivery states mean')).toBeVisible();
  });

  it('shows the reminder’s messages apart, after the send’s, with their own state', async () => {
    render(() =>
      ok({
        page: 1,
        limit: 100,
        total: 1,
        requests: [
          record('req_1', [
            { channel: 'sms', kind: 'request', state: 'delivered', error: null },
            { channel: 'email', state: 'delivered', error: null },
            {
              channel: 'sms',
              kind: 'reminder',
              state: 'undelivered',
              error: 'Unreachable (Twilio error 30003)',
            },
            { channel: 'email', kind: 'reminder', state: 'sent', error: null },
          ]),
        ],
      }),
    );
    const rows = await screen.findAllByTestId('send-row');
    const row = within(rows[0] as HTMLElement);
    await row.findByText('Reminder SMS: Not delivered');
    expect(row.getAllByTestId('leg').map((leg) => leg.textContent)).toEqual([
      'SMS: Delivered',
      'Email: Delivered',
      'Reminder SMS: Not deliveredUnreachable (Twilio error 30003)',
      'Reminder email: Sent to carrier',
    ]);
    expect(row.getByText('Reminder email: Sent to carrier').closest('[title]')).toHaveAttribute(
      'title',
      expect.stringMatching(/Not a delivery receipt/),
    );
  });

  it('keeps the journal-only view and says so when the API has no requests list', async () => {
    render(() => fail('not_found'));
    expect(await screen.findByTestId('delivery-not-available')).toHaveTextContent(
      'Delivery state is not available from this API',
    );
    expect(screen.getAllByTestId('send-row')).toHaveLength(2);
    expect(screen.queryByRole('columnheader', { name: 'Delivery' })).toBeNull();
  });
});
