import { finishingDay, formatDay } from '@review-desk/shared/bulk-days';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { currentUrl, renderPage } from '../../../test/render.tsx';
import BulkSendPage from './bulk-send-page.tsx';

// The list page against a stand-in BFF: the file is read and checked in the browser, recent
// contacts are looked up in the send history, the list is posted once, and the job's progress
// is followed at its own address.

const CSV = [
  'Name,Mobile,Email',
  'Ann Lee,+1 415 555 2671,ann@example.com',
  'Bo Li,+1 415 555 2672,bo@example.com',
  'Cy,not a phone,cy@example.com',
  'Ann again,(415) 555-2671,ann2@example.com',
  'Di,+1 415 555 2674,di@example.com',
].join('\r\n');

const JOB = {
  id: 'job-1',
  status: 'running',
  reason: null,
  channel: 'sms',
  skipRecent: true,
  location: 'main',
  counts: { total: 2, pending: 1, sent: 1, warning: 0, skipped: 0, refused: 0, failed: 0, unknown: 0 },
  createdBy: 'owner@example.com',
  createdAt: '2026-11-25T12:00:00.000Z',
  finishedAt: null,
  ratePerMinute: 60,
  dailyCap: null,
  timeZone: 'UTC',
  waitingUntil: null,
};

function bff() {
  const posted: unknown[] = [];
  const lookups: string[] = [];
  const stub = stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/sends') {
      const contact = url.searchParams.get('contact') ?? '';
      lookups.push(contact);
      const sends =
        contact === '+14155552672'
          ? [
              {
                id: 's1',
                createdAt: new Date(Date.now() - 86_400_000).toISOString(),
                finishedAt: null,
                sentBy: 'owner@example.com',
                channel: 'sms',
                customerName: 'Bo Li',
                contact: '+1 •••• 72',
                outcome: 'sent',
                httpStatus: 201,
                requestId: 'r1',
                status: 'sent',
                reviewLink: null,
                warning: null,
                error: null,
              },
            ]
          : [];
      return ok({ page: 1, limit: 20, total: sends.length, sends });
    }
    if (url.pathname === '/bff/bulk-sends' && request.method === 'POST') {
      posted.push(await request.json());
      return new Response(JSON.stringify({ success: true, data: { id: 'job-1' } }), {
        status: 202,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (url.pathname === '/bff/bulk-sends' && request.method === 'GET')
      return ok({ jobs: [JOB], timeZone: 'Europe/London' });
    if (url.pathname === '/bff/bulk-sends/job-1') return ok(JOB);
    if (url.pathname === '/bff/bulk-sends/job-1/rows')
      return ok({
        page: 1,
        limit: 50,
        total: 2,
        rows: [
          {
            index: 0,
            customerName: 'Ann Lee',
            contact: '+1 •••• 71',
            outcome: 'sent',
            code: null,
            detail: null,
            requestId: 'req_9',
            finishedAt: null,
          },
          {
            index: 1,
            customerName: 'Di',
            contact: '+1 •••• 74',
            outcome: 'pending',
            code: null,
            detail: null,
            requestId: null,
            finishedAt: null,
          },
        ],
      });
    return fail('not_found');
  });
  return { ...stub, posted, lookups };
}

afterEach(() => vi.unstubAllGlobals());

/** Opens the page, uploads CSV and checks recent requests. */
async function uploadAndCheck() {
  const user = userEvent.setup();
  renderPage(<BulkSendPage title="Send to a list" />, { url: '/send/list' });
  await user.upload(screen.getByLabelText(/Customer list/), new File([CSV], 'c.csv', { type: 'text/csv' }));
  await user.click(await screen.findByRole('button', { name: 'Check recent requests' }));
  await screen.findByTestId('preflight-recent-alert');
  return user;
}

// Each test uploads a file and renders the whole page: slower than the default 5 s on a busy machine.
describe('Send to a list', { timeout: 15_000 }, () => {
  it('checks every row before sending, has the server skip recent contacts, and follows the job', async () => {
    const server = bff();
    const user = userEvent.setup();
    const view = renderPage(<BulkSendPage title="Send to a list" />, { url: '/send/list' });
    // Earlier lists, with who started each, open their progress.
    const earlier = await screen.findByRole('table', { name: 'Earlier lists' });
    expect(earlier).toHaveTextContent('owner@example.com');
    expect(within(earlier).getByRole('link')).toHaveAttribute('href', '/send/list?job=job-1');
    await user.upload(
      screen.getByLabelText(/Customer list/),
      new File([CSV], 'customers.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('customers.csv: 5 rows')).toBeInTheDocument();
    // Phone and email columns: each row by the contact it has. This list goes by SMS.
    expect(screen.getByLabelText('Send by')).toHaveValue('sms_or_email');
    await user.selectOptions(screen.getByLabelText('Send by'), 'sms');
    expect(within(screen.getByTestId('preflight-valid')).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByTestId('preflight-errors')).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByTestId('preflight-duplicates')).getByText('1')).toBeInTheDocument();
    // The API does not say how much of the month's allowance is left: the preflight says so.
    expect(screen.getByTestId('preflight-allowance')).toHaveTextContent('not known before sending');
    // The bad row in the send form's words, with its line in the file.
    const errors = screen.getByRole('table', { name: 'Rows with errors' });
    expect(within(errors).getByText('4')).toBeInTheDocument();
    expect(within(errors).getByText(/^Phone number /)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Check recent requests' }));
    const recent = await screen.findByTestId('preflight-recent-alert');
    expect(recent).toHaveTextContent('1 contact was sent a request in the last 30 days');
    // Sent a day ago: it can be asked again in 29 days, and the line says when.
    const askAgain = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(Date.now() + 29 * 86_400_000),
    );
    expect(recent).toHaveTextContent(`Line 3: you can ask again on ${askAgain}`);
    // The service would refuse them: nothing offers to send to them anyway.
    expect(within(recent).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.getByText('1 duplicate row: each contact gets one request')).toBeInTheDocument();
    expect(server.lookups.sort()).toEqual(['+14155552671', '+14155552672', '+14155552674']);
    expect(within(screen.getByTestId('preflight-recent')).getByText('1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send 2 requests' }));
    await waitFor(() => expect(currentUrl(view)).toBe('/send/list?job=job-1'));
    // Every valid row goes: the recent one is skipped by the server and listed in the results.
    expect(server.posted).toEqual([
      {
        channel: 'sms',
        skipRecent: true,
        rows: [
          { customerName: 'Ann Lee', customerPhone: '+14155552671' },
          { customerName: 'Bo Li', customerPhone: '+14155552672' },
          { customerName: 'Di', customerPhone: '+14155552674' },
        ],
      },
    ]);
    expect(await screen.findByText('1 of 2 rows done')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-status')).toHaveTextContent('Sending');
    expect(await screen.findByText('req_9')).toBeInTheDocument();
  });

  it('sends by the contact each row has by default, and shows the job of the address on a reload', async () => {
    const server = bff();
    const user = await uploadAndCheck();
    await user.click(screen.getByRole('button', { name: 'Send 2 requests' }));
    await waitFor(() => expect(server.posted).toHaveLength(1));
    expect(server.posted[0]).toMatchObject({ channel: 'sms_or_email', skipRecent: true });

    vi.unstubAllGlobals();
    bff();
    renderPage(<BulkSendPage title="Send to a list" />, { url: '/send/list?job=job-1' });
    expect(await screen.findAllByText('1 of 2 rows done')).not.toHaveLength(0);
  });

  it('spreads a list over days when asked, saying the day it finishes on the server’s calendar', async () => {
    const server = bff();
    const user = await uploadAndCheck();
    await screen.findByRole('table', { name: 'Earlier lists' });
    await user.click(screen.getByRole('checkbox', { name: /Spread over days/ }));
    const cap = screen.getByLabelText('At most this many a day');
    await user.clear(cap);
    await user.type(cap, '1');
    const zone = 'Europe/London';
    const day = formatDay(finishingDay(2, 1, Date.now(), zone), Date.now(), zone);
    expect(screen.getByTestId('bulk-finishes')).toHaveTextContent(
      `Finishes on ${day} at 1 a day (days on Europe/London time)`,
    );
    await user.click(screen.getByRole('button', { name: 'Send 2 requests' }));
    await waitFor(() => expect(server.posted).toHaveLength(1));
    expect(server.posted[0]).toMatchObject({ dailyCap: 1, skipRecent: true });
  });

  it('says why a file cannot be used', async () => {
    bff();
    const user = userEvent.setup();
    renderPage(<BulkSendPage title="Send to a list" />, { url: '/send/list' });
    await user.upload(
      screen.getByLabelText(/Customer list/),
      new File(['name,email\n'], 'e.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('no customers');
  });
});
