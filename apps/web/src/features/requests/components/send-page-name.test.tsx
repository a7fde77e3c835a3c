import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import SendPage from './send-page.tsx';

// The customer's name goes into the message and onto the customer page: the form applies the
// shared rule before sending, in the server's words, on the name's field.

afterEach(() => vi.unstubAllGlobals());

function bff() {
  const bodies: unknown[] = [];
  const stub = stubFetch(async (request) => {
    bodies.push(await request.json());
    return ok({
      requestId: 'req_1',
      status: 'sent',
      channel: 'link',
      reviewLink: 'http://127.0.0.1:4000/r/t',
    });
  });
  return { ...stub, bodies };
}

async function createLink(name: string) {
  const u = userEvent.setup();
  renderPage(<SendPage title="Send a review request" />, { url: '/send', me: session('staff') });
  await u.click(screen.getByRole('radio', { name: 'Link' }));
  await u.type(screen.getByLabelText(/Customer name/), name);
  await u.click(screen.getByRole('button', { name: 'Create link' }));
}

describe('Send page: the customer name', () => {
  it.each(['Visit evil.com/x', 'Ana https://evil.example', 'Ana www.evil.example'])(
    'refuses %j on the name field, sending nothing',
    async (name) => {
      const { fetchMock } = bff();
      await createLink(name);
      const field = screen.getByLabelText(/Customer name/);
      await waitFor(() => expect(field).toHaveAccessibleDescription(/must not contain a web address/));
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('sends the name without control and bidi characters', async () => {
    const { bodies } = bff();
    await createLink('\u202eAna\u2066 Lee\u2069\u0007');
    await screen.findByTestId('send-result');
    expect(bodies).toEqual([{ channel: 'link', customerName: 'Ana Lee' }]);
  });
});
