import { EMAIL_OPT_OUT, SMS_OPT_OUT } from '@review-desk/shared/settings';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, stubFetch } from '../../../test/fetch-stub.ts';
import { LINK, openSettings, settingsAnswer, storedSettings, stubSettingsBff } from './settings-fixture.tsx';

afterEach(() => vi.unstubAllGlobals());

const stored = storedSettings({
  quietHours: { start: '08:00', end: '21:00' },
  reviewSiteUrl: 'https://g.page/r/harbour/review',
});

function bff(options: { put?: (body: Record<string, unknown>) => Response } = {}) {
  const puts = stubSettingsBff(stored, (body) => options.put?.(body) ?? settingsAnswer(body));
  return { puts };
}

const open = openSettings;

/** The page opened on the stubbed BFF, once the stored settings have loaded. */
async function openLoaded(options: Parameters<typeof bff>[0] = {}) {
  const { puts } = bff(options);
  const u = userEvent.setup();
  open();
  await screen.findByTestId('sms-text');
  return { puts, u };
}
/** Sets a field's whole value in one change (typing braces with user-event needs escapes). */
const setValue = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Settings page (owners)', () => {
  it('previews the SMS and the email as the customer receives them, with the opt-out words', async () => {
    bff();
    open();
    const sms = await screen.findByTestId('sms-text');
    expect(sms).toHaveTextContent(
      `Hi Alexandra Whitfield, thanks for choosing Harbour Street Coffee! How did we do? ${LINK} ${SMS_OPT_OUT}`,
    );
    // 178 characters with a real-length link and the opt-out words: two parts of 153.
    expect(screen.getByTestId('sms-count')).toHaveTextContent('2 segments');
    expect(screen.getByTestId('sms-count')).toHaveTextContent('GSM-7');
    expect(screen.getByTestId('sms-count')).toHaveTextContent('178 of 306 characters');
    expect(screen.getByTestId('email-subject')).toHaveTextContent(
      'How was your visit to Harbour Street Coffee?',
    );
    expect(screen.getByTestId('email-body').textContent?.endsWith(EMAIL_OPT_OUT)).toBe(true);

    await userEvent.setup().click(screen.getByLabelText('Preview for a customer without a name'));
    expect(screen.getByTestId('sms-text')).toHaveTextContent(/^Hi there, thanks for choosing/);
  });

  it('updates the preview, the segment count and the encoding as the owner types', async () => {
    await openLoaded();
    setValue('SMS message', 'We’d love a word, {customer_name|friend}: {review_link}');
    expect(screen.getByTestId('sms-text')).toHaveTextContent(
      `We’d love a word, Alexandra Whitfield: ${LINK}`,
    );
    const count = screen.getByTestId('sms-count');
    // One curly apostrophe: the whole text is UCS-2, 135 units in parts of 67.
    expect(count).toHaveTextContent('UCS-2');
    expect(count).toHaveTextContent('3 segments');
    setValue('SMS message', 'We would love a word, {customer_name|friend}: {review_link}');
    expect(screen.getByTestId('sms-count')).toHaveTextContent('GSM-7');
    expect(screen.getByTestId('sms-count')).toHaveTextContent('1 segment');
    setValue('SMS message', 'We’d love a word, {customer_name|friend}: {review_link}');
    expect(screen.getByTestId('sms-preview')).toHaveTextContent('because of “’”');

    setValue('SMS message', `${'a'.repeat(420)} {review_link}`);
    expect(screen.getByTestId('sms-count')).toHaveTextContent('4 segments');
    expect(screen.getByTestId('sms-preview')).toHaveTextContent('At most 3 segments');
  });

  it('refuses, before sending, a template without the link or with an unknown placeholder, naming the field', async () => {
    const { puts, u } = await openLoaded();
    setValue('SMS message', 'Thanks from {business_name}!');
    setValue('Email message', 'Hi {first_name} {review_link}');
    await u.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/SMS message must contain \{review_link\}/)).toBeInTheDocument();
    expect(screen.getByText(/Email message has an unknown placeholder \{first_name\}/)).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });

  it('saves what the owner changed (the rest keeps following the defaults): new words, a reminder, any hour', async () => {
    const { puts, u } = await openLoaded();
    setValue('SMS message', 'Thanks {customer_name}! Rate us: {review_link}');
    await u.selectOptions(screen.getByLabelText(/^Reminder/), '3');
    await u.click(screen.getByLabelText(/Send only during sending hours/));
    await u.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      smsTemplate: 'Thanks {customer_name}! Rate us: {review_link}',
      reminderAfterDays: 3,
      quietHours: null,
    });
  });

  it('shows the service’s field messages next to the field', async () => {
    const { u } = await openLoaded({
      put: () =>
        fail('validation_failed', 'SMS message makes an SMS of 4 segments', {
          fields: { smsTemplate: 'SMS message makes an SMS of 4 segments (GSM-7, 470 of 459 characters)' },
        }),
    });
    await u.click(screen.getByRole('button', { name: 'Save settings' }));
    const field = screen.getByLabelText('SMS message').closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(await within(field).findByText(/4 segments \(GSM-7, 470 of 459/)).toBeInTheDocument();
  });

  it('says the settings are managed by the connected service when it has none', async () => {
    stubFetch(() => fail('settings_not_offered'));
    open();
    expect(await screen.findByTestId('settings-not-offered')).toHaveTextContent(/managed by that service/);
    expect(screen.queryByRole('form', { name: 'Settings' })).not.toBeInTheDocument();
  });
});
