import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import SendPage from './send-page.tsx';

type SendCall = { key: string | null; body: Record<string, unknown> };

/** A BFF: a send history (optionally with an earlier request) and a scripted send endpoint. */
function bff(options: { history?: unknown[]; answers?: (() => Response | Promise<Response>)[] } = {}) {
  const sends: SendCall[] = [];
  const lookups: string[] = [];
  const answers = [...(options.answers ?? [])];
  const stub = stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/bff/sends') {
      lookups.push(url.searchParams.get('contact') ?? '');
      const list = options.history ?? [];
      return ok({ page: 1, limit: 20, total: list.length, sends: list });
    }
    if (url.pathname === '/api/v1/requests/send' && request.method === 'POST') {
      sends.push({
        key: request.headers.get('idempotency-key'),
        body: (await request.json()) as Record<string, unknown>,
      });
      const answer = answers.shift();
      if (answer) return answer();
      return ok({
        requestId: 'req_123',
        status: 'sent',
        channel: 'sms',
        reviewLink: 'http://127.0.0.1:4000/r/tok',
      });
    }
    return fail('not_found');
  });
  return { ...stub, sends, lookups };
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

const user = () => userEvent.setup();
const renderSend = () =>
  renderPage(<SendPage title="Send a review request" />, { url: '/send', me: session('staff') });

async function fillPhone(u: ReturnType<typeof user>, number: string) {
  await u.selectOptions(screen.getByLabelText('Country'), 'US');
  await u.type(screen.getByLabelText(/Phone number/), number);
}

/** Fills the number in and presses Send request. */
async function sendTo(u: ReturnType<typeof user>, number: string) {
  await fillPhone(u, number);
  await u.click(screen.getByRole('button', { name: 'Send request' }));
}

/** Renders the page on a BFF whose sends answer in turn with `answers`, and sends to a valid number. */
async function sendAnswered(u: ReturnType<typeof user>, ...answers: (() => Response | Promise<Response>)[]) {
  const stub = bff({ answers });
  renderSend();
  await sendTo(u, '415 555 2671');
  return stub;
}

/** The refusal shown for a send that was not made, never the outcome-unknown state. */
async function refusal() {
  const refused = await screen.findByTestId('send-refused');
  expect(screen.queryByTestId('send-unknown')).not.toBeInTheDocument();
  return refused;
}

/** Corrects the number and sends again until accepted: a new intent, so a new Idempotency-Key. */
async function sendAgainToCorrectedNumber(u: ReturnType<typeof user>, sends: SendCall[]) {
  const before = sends.length;
  await u.clear(screen.getByLabelText(/Phone number/));
  await sendTo(u, '415 555 2672');
  await screen.findByTestId('send-result');
  expect(sends).toHaveLength(before + 1);
  expect(sends.at(-1)!.key).not.toBe(sends[0]!.key);
}

describe('Send page: the form per channel', () => {
  it('shows only the fields each channel needs', async () => {
    const u = user();
    bff();
    renderSend();
    expect(screen.getByLabelText(/Phone number/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/Customer email/)).not.toBeInTheDocument();

    await u.click(screen.getByRole('radio', { name: 'Email' }));
    expect(screen.queryByLabelText(/Phone number/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Customer email/)).toBeInTheDocument();

    await u.click(screen.getByRole('radio', { name: 'Both' }));
    expect(screen.getByLabelText(/Phone number/)).toBeInTheDocument();
    expect(screen.getByLabelText(/Customer email/)).toBeInTheDocument();

    await u.click(screen.getByRole('radio', { name: 'Link' }));
    expect(screen.queryByLabelText(/Phone number/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Customer email/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create link' })).toBeInTheDocument();
  });

  it('refuses an SMS without a phone with the shared schema’s message, sending nothing', async () => {
    const u = user();
    const { fetchMock } = bff();
    renderSend();
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/^Phone number is required to send by SMS/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows where the number will go, in international form', async () => {
    const u = user();
    bff();
    renderSend();
    await fillPhone(u, '415 555 2671');
    expect(screen.getByTestId('phone-preview')).toHaveTextContent('Will be sent to +1 415 555 2671');
  });
});

describe('Send page: sending', () => {
  it('checks the history, sends once with an Idempotency-Key and E.164, and tells the honest result', async () => {
    const u = user();
    const { sends, lookups } = bff();
    renderSend();
    await u.type(screen.getByLabelText(/Customer name/), 'Ana');
    await sendTo(u, '(415) 555-2671');

    const result = await screen.findByTestId('send-result');
    expect(lookups).toEqual(['+14155552671']);
    expect(sends).toHaveLength(1);
    expect(sends[0]!.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sends[0]!.body).toEqual({ channel: 'sms', customerName: 'Ana', customerPhone: '+14155552671' });
    // One state, its definition a tap away.
    const state = within(result).getByRole('button', { name: 'Accepted for delivery' });
    expect(result).not.toHaveTextContent('Not a delivery receipt');
    await u.click(state);
    expect(result).toHaveTextContent('Accepted for delivery. Not a delivery receipt, and not a review.');
    expect(within(result).getByTestId('request-id')).toHaveTextContent('req_123');
    expect(within(result).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  });

  it('puts a partial-delivery warning first and prominently', async () => {
    const u = user();
    bff({
      answers: [
        () =>
          ok({
            requestId: 'req_9',
            status: 'sent',
            channel: 'both',
            reviewLink: 'http://x/r/1',
            warning: 'SMS delivery failed: carrier refused the number. The email was sent.',
          }),
      ],
    });
    renderSend();
    await u.click(screen.getByRole('radio', { name: 'Both' }));
    await fillPhone(u, '415 555 0000');
    await u.type(screen.getByLabelText(/Customer email/), 'ana@example.com');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    const warning = await screen.findByTestId('send-warning');
    expect(warning).toHaveTextContent('SMS delivery failed');
    expect(screen.getByRole('heading', { name: 'Request accepted, with a problem' })).toBeInTheDocument();
  });

  it('sends exactly once on a double click, with the button disabled in flight', async () => {
    const u = user();
    let release: () => void = () => {};
    const { sends } = bff({
      answers: [
        () =>
          new Promise<Response>((resolve) => {
            release = () =>
              resolve(ok({ requestId: 'r', status: 'sent', channel: 'link', reviewLink: 'http://x/r/2' }));
          }),
      ],
    });
    renderSend();
    await u.click(screen.getByRole('radio', { name: 'Link' }));
    const button = screen.getByRole('button', { name: 'Create link' });
    await u.dblClick(button);
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(screen.getByRole('button', { name: /Create link/ })).toBeDisabled();
    release();
    expect(await screen.findByTestId('qr-code')).toBeInTheDocument();
    expect(sends).toHaveLength(1);
  });

  it('shows a distinct outcome-unknown state on a timeout; trying again reuses the key, a new request gets a new one', async () => {
    const u = user();
    const { sends } = await sendAnswered(
      u,
      () => fail('upstream_timeout'),
      () =>
        fail(
          'outcome_unknown',
          'Outcome unknown — a request may have been sent; check recent requests before sending again.',
        ),
    );
    const unknown = await screen.findByTestId('send-unknown');
    expect(unknown).toHaveTextContent('Outcome unknown: a request may have gone out');
    expect(within(unknown).getByRole('link', { name: 'Check recent requests' })).toHaveAttribute(
      'href',
      '/requests?contact=%2B14155552671',
    );
    expect(screen.queryByTestId('send-result')).not.toBeInTheDocument();

    await u.click(within(unknown).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(sends[1]!.key).toBe(sends[0]!.key);
    expect(await screen.findByTestId('send-unknown')).toHaveTextContent(
      'Outcome unknown — a request may have been sent',
    );

    await u.click(screen.getByRole('button', { name: 'Edit the request' }));
    await sendAgainToCorrectedNumber(u, sends); // the third send
  });

  it('puts the server’s 400 field messages on the fields', async () => {
    const u = user();
    await sendAnswered(u, () =>
      fail('validation_failed', 'Phone number is not reachable by SMS.', {
        fields: { customerPhone: 'Phone number is not reachable by SMS.' },
      }),
    );
    const phone = await screen.findByLabelText(/Phone number/);
    await waitFor(() => expect(phone).toHaveAccessibleDescription(/Phone number is not reachable by SMS\./));
  });

  const EVERY_DELIVERY_FAILED = () =>
    fail(
      'delivery_failed',
      'Every delivery failed; no message reached the customer. SMS: carrier refused the number.',
    );

  it.each([
    {
      refusal: 'a 502 where every delivery failed',
      answer: EVERY_DELIVERY_FAILED,
      words: ['Not sent: every delivery failed', 'carrier refused the number', 'Nothing was sent'],
    },
    {
      refusal: 'a 403 (allowance)',
      answer: () =>
        fail(
          'allowance_exceeded',
          'Sending allowance exceeded: this business may send 500 review requests per calendar month.',
        ),
      words: ['Not allowed', 'Sending allowance exceeded'],
    },
  ])(
    'explains $refusal as not sent, with what to do, and does not call it unknown',
    async ({ answer, words }) => {
      await sendAnswered(user(), answer);
      const refused = await refusal();
      // The error state's code comes with the first failure (components/error-state-lazy.tsx).
      await waitFor(() => {
        for (const text of words) expect(refused).toHaveTextContent(text);
      });
    },
  );

  it('lets the user fix a send where every delivery failed and send again with a new key', async () => {
    const u = user();
    const { sends } = await sendAnswered(u, EVERY_DELIVERY_FAILED);
    await refusal();
    // Fixed and sent again: a new intent, so a new Idempotency-Key.
    await sendAgainToCorrectedNumber(u, sends);
  });
});
