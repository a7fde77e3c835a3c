import type { WidgetOwner } from '@review-desk/shared/widget-schema';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import WebsiteWidget from './website-widget.tsx';
import { widgetAnswer } from './widget-fixture.ts';

// Settings → Website widget against a stubbed BFF: the snippet, the preview in the widget's own
// words, hiding a review for a reason (never a rating), showing it again, and the switch.

afterEach(() => vi.unstubAllGlobals());

type Call = { method: string; path: string; body: unknown };

function bff(first: WidgetOwner, answer: (call: Call) => Response = () => ok(first)) {
  const calls: Call[] = [];
  stubFetch(async (request) => {
    const call = {
      method: request.method,
      path: new URL(request.url).pathname,
      body: request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json(),
    };
    calls.push(call);
    return request.method === 'GET' ? ok(first) : answer(call);
  });
  return calls;
}

const open = () => renderPage(<WebsiteWidget />, { url: '/settings', me: session('owner') });

describe('Settings → Website widget', () => {
  it('shows the snippet to copy and a preview in the widget’s words, every rating', async () => {
    bff(widgetAnswer());
    open();
    const snippet = await screen.findByRole('figure', { name: 'Snippet to paste into your website' });
    expect(snippet).toHaveTextContent('data-business="wgt_');
    expect(screen.getByRole('button', { name: 'Copy snippet' })).toBeEnabled();
    const preview = screen.getByRole('region', { name: 'Preview of the widget' });
    expect(preview).toHaveTextContent('3.4 out of 5 from 7 reviews in the last 12 months');
    expect(preview).toHaveTextContent('whatever their rating');
    expect(within(preview).getByRole('img', { name: '1 out of 5 stars' })).toBeInTheDocument();
    expect(within(preview).getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
    expect(preview).toHaveTextContent('A customer');
    expect(within(preview).getByRole('link', { name: 'Read them on Google' })).toHaveAttribute(
      'href',
      'https://g.page/r/harbour/review',
    );
  });

  it('hides a review only with a content reason, then lists it with its reason and shows it again', async () => {
    const first = widgetAnswer();
    const hiddenAnswer = widgetAnswer({
      shown: first.shown.slice(1),
      hidden: [{ ...first.shown[0]!, reason: 'private_data', hiddenAt: '2026-11-23T10:00:00.000Z' }],
    });
    const calls = bff(first, (call) => (call.method === 'PUT' ? ok(hiddenAnswer) : ok(first)));
    const u = userEvent.setup();
    open();
    await u.click(
      await screen.findByRole('button', { name: 'Hide the review by Noor H. from the website…' }),
    );
    const group = screen.getByRole('radiogroup', { name: 'Why hide the review by Noor H.?' });
    const confirm = screen.getByRole('button', { name: 'Hide this review' });
    expect(confirm).toBeDisabled();
    // Only reasons about what a review says: nothing about its rating or tone.
    const reasons = within(group)
      .getAllByRole('radio')
      .map((radio) => radio.closest('label, div')?.textContent ?? '');
    expect(reasons.join(' ')).not.toMatch(/rating|negative|unfair/i);
    await u.click(within(group).getByLabelText(/Private information about someone/));
    await u.click(confirm);
    expect(calls.at(-1)).toEqual({
      method: 'PUT',
      path: '/bff/widget/hidden/rev_11',
      body: { reason: 'private_data' },
    });

    const hidden = await screen.findByTestId('hidden-reviews');
    expect(hidden).toHaveTextContent('Cold coffee');
    expect(hidden).toHaveTextContent('Private information about someone');
    expect(screen.getByTestId('widget-preview-hidden')).toHaveTextContent(
      '1 review hidden for privacy or abuse.',
    );
    await u.click(within(hidden).getByRole('button', { name: 'Show the review by Noor H. again' }));
    expect(calls.at(-1)).toEqual({ method: 'DELETE', path: '/bff/widget/hidden/rev_11', body: undefined });
    expect(
      await screen.findByText('None. Every review a customer agreed to share is shown.'),
    ).toBeInTheDocument();
  });

  it('turns the widget off and says what visitors then see', async () => {
    const calls = bff(widgetAnswer(), () => ok(widgetAnswer({ enabled: false })));
    const u = userEvent.setup();
    open();
    const toggle = await screen.findByRole('checkbox', { name: 'Show the widget on my website' });
    expect(toggle).toBeChecked();
    await u.click(toggle);
    expect(calls.at(-1)).toEqual({ method: 'PUT', path: '/bff/widget', body: { enabled: false } });
    expect(await screen.findByTestId('widget-off')).toHaveTextContent(
      'Visitors of your website see no reviews.',
    );
    expect(screen.getByRole('checkbox', { name: 'Show the widget on my website' })).not.toBeChecked();
  });

  it('says when the review service offers no widget', async () => {
    stubFetch(() => fail('widget_not_offered'));
    open();
    expect(await screen.findByTestId('widget-not-offered')).toHaveTextContent(
      'does not offer a website widget',
    );
  });
});
