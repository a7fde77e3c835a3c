import { AUTOMATIC_CONSENT_REMINDER } from '@review-desk/shared/integrations';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import IntegrationsSection from './integrations-section.tsx';

// Settings → Integrations against a stubbed BFF: Square off until the owner turns automatic
// sends on (beside the consent reminder); a new endpoint's secret shown once; a paused endpoint
// says so and offers Resume; the log's "Send again".

afterEach(() => vi.unstubAllGlobals());

const square = {
  source: 'square',
  connected: true,
  notificationUrl: 'https://reviews.example.com/webhooks/square/sq_abcdefghijklmnop',
  readsCustomers: false,
  automaticSends: false,
  delayMinutes: 120,
  connectedAt: '2030-01-01T10:00:00.000Z',
  lastEventAt: null,
  requests: 0,
};
const endpoint = {
  id: 'we_paused',
  url: 'https://crm.example.com/hooks',
  events: ['request.sent'],
  state: 'paused',
  pausedAt: '2030-01-04T10:00:00.000Z',
  pausedReason:
    'Every attempt of an event failed for 10 tries over three days; the last: The endpoint answered 503.',
  createdAt: '2030-01-01T10:00:00.000Z',
  previousSecretUntil: null,
  lastSuccessAt: null,
  lastFailureAt: '2030-01-04T10:00:00.000Z',
};

function stub() {
  const writes: { method: string; path: string; body: unknown }[] = [];
  stubFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path === '/bff/integrations') return ok({ integrations: [square] });
    if (request.method === 'GET' && path === '/bff/webhooks') return ok({ webhooks: [endpoint] });
    const body =
      request.method === 'GET' ? null : await request.text().then((t) => (t ? JSON.parse(t) : null));
    writes.push({ method: request.method, path, body });
    if (path === '/bff/integrations/square') return ok({ ...square, ...(body as object) });
    if (path === '/bff/webhooks')
      return ok({
        ...endpoint,
        id: 'we_new',
        state: 'active',
        pausedAt: null,
        pausedReason: null,
        url: (body as { url: string }).url,
        secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=',
      });
    return ok({ ...endpoint, state: 'active' });
  });
  return writes;
}

describe('Settings → Integrations', () => {
  it('turns Square’s automatic sends on beside the consent reminder', async () => {
    const writes = stub();
    const u = userEvent.setup();
    renderPage(<IntegrationsSection />, { url: '/settings', me: session('owner') });
    const card = await screen.findByTestId('square-card');
    expect(within(card).getByTestId('consent-reminder')).toHaveTextContent(AUTOMATIC_CONSENT_REMINDER);
    expect(within(card).getByRole('switch', { name: /automatically/ })).not.toBeChecked();
    await u.click(within(card).getByRole('switch', { name: /automatically/ }));
    await u.click(within(card).getByRole('button', { name: 'Save Square' }));
    expect(writes).toContainEqual({
      method: 'PUT',
      path: '/bff/integrations/square',
      body: { automaticSends: true, delayMinutes: 120 },
    });
  });

  it('shows a new endpoint’s secret once, a paused endpoint’s reason, and resumes it', async () => {
    const writes = stub();
    const u = userEvent.setup();
    renderPage(<IntegrationsSection />, { url: '/settings', me: session('owner') });
    const paused = await screen.findByTestId('webhook-paused');
    expect(paused).toHaveTextContent('503');
    await u.click(screen.getByRole('button', { name: 'Resume' }));
    expect(writes).toContainEqual({ method: 'POST', path: '/bff/webhooks/we_paused/resume', body: null });

    const address = screen.getByLabelText('Endpoint address (https)');
    fireEvent.change(address, { target: { value: 'http://plain.example.com' } });
    await u.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText(/must be an https:\/\//)).toBeInTheDocument();
    fireEvent.change(address, { target: { value: 'https://erp.example.com/in' } });
    await u.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_c2VjcmV0LXNob3duLW9uY2U=');
    expect(writes.at(-1)).toMatchObject({
      method: 'POST',
      path: '/bff/webhooks',
      body: { url: 'https://erp.example.com/in' },
    });
  });
});
