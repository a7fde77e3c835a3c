import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import SendPage from './send-page.tsx';

// A customer asked recently: the service takes one request per customer every 30 days, so the form
// never offers a send it will refuse — it says when the customer can be asked again and offers a
// link instead; only when whether the earlier request went out is not known may the user send.

/** A BFF with one earlier request in the send history; every send is recorded and accepted. */
function bff(history: unknown[]) {
  const sends: { body: Record<string, unknown> }[] = [];
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/sends')
      return ok({ page: 1, limit: 20, total: history.length, sends: history });
    if (url.pathname === '/api/v1/requests/send' && request.method === 'POST') {
      sends.push({ body: (await request.json()) as Record<string, unknown> });
      return ok({
        requestId: 'req_123',
        status: 'sent',
        channel: 'sms',
        reviewLink: 'http://127.0.0.1:4000/r/tok',
      });
    }
    return fail('not_found');
  });
  return { sends };
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

const user = () => userEvent.setup();
const renderSend = () =>
  renderPage(<SendPage title="Send a review request" />, { url: '/send', me: session('staff') });

/** Fills the number in and presses Send request. */
async function sendTo(u: ReturnType<typeof user>, number: string) {
  await u.selectOptions(screen.getByLabelText('Country'), 'US');
  await u.type(screen.getByLabelText(/Phone number/), number);
  await u.click(screen.getByRole('button', { name: 'Send request' }));
}

// Each test types a name and a number and renders the whole form: slower than the default 5 s on a busy machine.
describe('Send page: a customer asked recently', { timeout: 15_000 }, () => {
  /** An earlier request to +1 415 555 2671, `daysAgo` days ago, with this outcome. */
  const earlier = (daysAgo: number, outcome: string) => ({
    id: 's0',
    createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
    finishedAt: null,
    sentBy: 'manager@example.com',
    channel: 'sms',
    customerName: 'Ana',
    contact: '+1 ••• ••• 2671',
    outcome,
    httpStatus: outcome === 'unknown' ? null : 200,
    requestId: outcome === 'unknown' ? null : 'req_0',
    status: outcome === 'unknown' ? null : 'sent',
    reviewLink: null,
    warning: null,
    error: null,
  });

  it('never offers a send the service will refuse: says when to ask again, and offers a link instead', async () => {
    const u = user();
    const { sends } = bff([earlier(3, 'sent')]);
    renderSend();
    await u.type(screen.getByLabelText('Customer name'), 'Ana');
    await sendTo(u, '415 555 2671');
    const dialog = await screen.findByRole('dialog', { name: 'This customer was asked recently' });
    expect(dialog).toHaveTextContent('3 days ago');
    expect(dialog).toHaveTextContent('one request per customer every 30 days');
    const askAgain = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(Date.now() + 27 * 86_400_000),
    );
    expect(within(dialog).getByTestId('ask-again')).toHaveTextContent(askAgain);
    expect(within(dialog).queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Change the contact' }));
    expect(sends).toHaveLength(0);

    await u.click(screen.getByRole('button', { name: 'Send request' }));
    await u.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Create a review link instead' }),
    );
    await screen.findByTestId('send-result');
    expect(sends.map((s) => s.body)).toEqual([{ channel: 'link', customerName: 'Ana' }]);
  });

  it('offers to send, plainly, when whether the earlier request went out is not known', async () => {
    const u = user();
    const { sends } = bff([earlier(2, 'unknown')]);
    renderSend();
    await sendTo(u, '415 555 2671');
    const dialog = await screen.findByRole('dialog', { name: 'This customer may have been asked recently' });
    expect(dialog).toHaveTextContent('if it did, the service refuses this one');
    await u.click(within(dialog).getByRole('button', { name: 'Send' }));
    await screen.findByTestId('send-result');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.body).toMatchObject({ channel: 'sms', customerPhone: '+14155552671' });
  });
});
