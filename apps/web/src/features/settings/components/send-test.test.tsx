import { DEFAULT_EMAIL_SUBJECT, DEFAULT_EMAIL_TEMPLATE } from '@review-desk/shared/settings';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '../../../test/fetch-stub.ts';
import { openSettings, storedSettings, stubSettingsBff } from './settings-fixture.tsx';

// "Send me a test" on the Settings page: the words in the editor (saved or not) go to the owner's
// own email or the phone typed; the answer is said plainly, and so is the hour's limit.

afterEach(() => vi.unstubAllGlobals());

function bff(answer: (body: Record<string, unknown>) => Response) {
  return stubSettingsBff(storedSettings(), (body, path) => {
    expect(path).toBe('/bff/settings/test');
    return answer(body);
  });
}

const open = openSettings;

describe('Send me a test', () => {
  it('sends the unsaved words by email to the owner and says it was handed to the carrier', async () => {
    const tests = bff((body) =>
      ok({ channel: body.channel, to: 'owner@example.com', status: 'sent', error: null, remaining: 4 }),
    );
    open();
    const sms = await screen.findByLabelText('SMS message');
    const edited = 'New words for {customer_name}: {review_link}';
    fireEvent.change(sms, { target: { value: edited } });
    const panel = within(screen.getByTestId('send-test'));
    expect(panel.getByLabelText('Email to owner@example.com')).toBeChecked();
    await userEvent.setup().click(panel.getByRole('button', { name: 'Send me a test' }));

    const result = await panel.findByTestId('send-test-result');
    expect(result).toHaveTextContent('Test sent');
    expect(result).toHaveTextContent('Handed to the carrier for owner@example.com');
    expect(result).toHaveTextContent('not a delivery receipt');
    expect(result).toHaveTextContent('4 more tests this hour');
    expect(tests).toEqual([
      {
        channel: 'email',
        templates: {
          smsTemplate: edited,
          emailSubject: DEFAULT_EMAIL_SUBJECT,
          emailTemplate: DEFAULT_EMAIL_TEMPLATE,
        },
      },
    ]);
  });

  it('checks the phone before sending an SMS test, then sends it to that phone', async () => {
    const tests = bff(() =>
      ok({ channel: 'sms', to: '+14155552671', status: 'sent', error: null, remaining: 1 }),
    );
    open();
    const panel = within(await screen.findByTestId('send-test'));
    const user = userEvent.setup();
    await user.click(panel.getByLabelText('SMS to my phone'));
    await user.type(panel.getByLabelText(/Your phone/), '12');
    await user.click(panel.getByRole('button', { name: 'Send me a test' }));
    expect(await panel.findByText(/^Phone number /)).toBeVisible();
    expect(tests).toEqual([]);

    await user.clear(panel.getByLabelText(/Your phone/));
    await user.type(panel.getByLabelText(/Your phone/), '+1 415 555 2671');
    await user.click(panel.getByRole('button', { name: 'Send me a test' }));
    expect(await panel.findByTestId('send-test-result')).toHaveTextContent('1 more test this hour');
    expect(tests[0]).toMatchObject({ channel: 'sms', phone: '+1 415 555 2671' });
  });

  it('says when the hour’s tests are used up, and names words the service refused', async () => {
    let answer = () =>
      fail(
        'test_send_limited',
        'At most 5 test messages per business in any hour.',
        {},
        { 'retry-after': '600' },
      );
    bff(() => answer());
    open();
    const panel = within(await screen.findByTestId('send-test'));
    const user = userEvent.setup();
    await user.click(panel.getByRole('button', { name: 'Send me a test' }));
    const limited = await panel.findByTestId('send-test-result');
    expect(limited).toHaveTextContent('The test to owner@example.com was not sent.');
    expect(limited).toHaveTextContent('At most 5 test messages per business in any hour.');
    expect(limited).toHaveTextContent(/try again in \d+ s/);

    answer = () =>
      fail('validation_failed', 'SMS message must contain {review_link}', {
        fields: { smsTemplate: 'SMS message must contain {review_link}' },
      });
    await user.click(panel.getByRole('button', { name: 'Send me a test' }));
    expect(await panel.findByText('Fix the words above first: nothing was sent')).toBeVisible();
    expect(panel.getByText('SMS message must contain {review_link}')).toBeVisible();
  });
});
