import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import NotificationsPage from './notifications-page.tsx';

afterEach(() => vi.unstubAllGlobals());

function bff(reply: { emailConfigured: boolean; digestAllowed: boolean; devOutbox?: boolean }) {
  let saved = { enabled: false, threshold: 2, channel: 'email', timeZone: 'Europe/London', digest: false };
  const puts: unknown[] = [];
  stubFetch(async (request) => {
    if (request.method === 'PUT') {
      const body = (await request.json()) as typeof saved;
      puts.push(body);
      if (body.digest && !reply.digestAllowed) return fail('role_forbidden');
      saved = body;
    }
    return ok({ preferences: saved, ...reply });
  });
  return { puts };
}

describe('Notifications page', () => {
  it('saves alerts on with a threshold and the bell only', async () => {
    const u = userEvent.setup();
    const { puts } = bff({ emailConfigured: true, digestAllowed: true });
    renderPage(<NotificationsPage title="Notifications" />, { url: '/notifications' });
    await u.click(await screen.findByRole('switch', { name: /Alert me about low ratings/ }));
    await u.selectOptions(screen.getByLabelText('Threshold'), '3');
    await u.click(screen.getByRole('radio', { name: 'The bell only' }));
    await u.click(screen.getByRole('checkbox', { name: /Weekly digest/ }));
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      enabled: true,
      threshold: 3,
      channel: 'in_app',
      timeZone: 'Europe/London',
      digest: true,
    });
    expect(screen.queryByTestId('email-not-configured')).not.toBeInTheDocument();
  });

  it('says when email is not configured, and offers the bell only', async () => {
    bff({ emailConfigured: false, digestAllowed: true });
    renderPage(<NotificationsPage title="Notifications" />, { url: '/notifications' });
    expect(await screen.findByTestId('email-not-configured')).toHaveTextContent('Email is not configured');
    expect(screen.getByRole('radio', { name: 'Email and the bell' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /Weekly digest/ })).toBeDisabled();
  });

  it('says when emails go to the development outbox', async () => {
    bff({ emailConfigured: true, digestAllowed: true, devOutbox: true });
    renderPage(<NotificationsPage title="Notifications" />, { url: '/notifications' });
    expect(await screen.findByTestId('dev-outbox')).toHaveTextContent('/dev/outbox.json');
  });

  it('does not offer the digest to a role without analytics', async () => {
    bff({ emailConfigured: true, digestAllowed: false });
    renderPage(<NotificationsPage title="Notifications" />, { url: '/notifications', me: session('staff') });
    const digest = await screen.findByRole('checkbox', { name: /Weekly digest/ });
    expect(digest).toBeDisabled();
    expect(screen.getByText(/your role cannot read/)).toBeInTheDocument();
  });
});
