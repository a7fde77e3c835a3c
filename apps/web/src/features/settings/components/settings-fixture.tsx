import {
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_SMS_TEMPLATE,
} from '@review-desk/shared/settings';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import SettingsPage from './settings-page.tsx';

// The Settings page's tests: a business's stored settings as the BFF answers them, the BFF
// stubbed (GET answers those settings; every write goes to the test's own answer), and the page
// opened by an owner.

export const LINK = `https://reviews.example.com/r/${'A'.repeat(43)}`;
const PREVIEW = { businessName: 'Harbour Street Coffee', reviewLink: LINK };

export function storedSettings(overrides: Record<string, unknown> = {}) {
  return {
    smsTemplate: DEFAULT_SMS_TEMPLATE,
    emailSubject: DEFAULT_EMAIL_SUBJECT,
    emailTemplate: DEFAULT_EMAIL_TEMPLATE,
    reminderAfterDays: 0,
    quietHours: null,
    timeZone: 'Europe/London',
    reviewSiteUrl: null,
    ...overrides,
  };
}

/** A settings answer (what GET and a saved PUT return). */
export const settingsAnswer = (settings: Record<string, unknown>) => ok({ settings, preview: PREVIEW });

/** Stubs the BFF; returns the bodies of the writes, in order. */
export function stubSettingsBff(
  stored: Record<string, unknown>,
  write: (body: Record<string, unknown>, path: string) => Response,
): Record<string, unknown>[] {
  const writes: Record<string, unknown>[] = [];
  stubFetch(async (request) => {
    // Settings → Website widget has its own tests (website-widget.test.tsx).
    if (new URL(request.url).pathname.startsWith('/bff/widget')) return fail('widget_not_offered');
    if (request.method === 'GET') return settingsAnswer(stored);
    const body = (await request.json()) as Record<string, unknown>;
    writes.push(body);
    return write(body, new URL(request.url).pathname);
  });
  return writes;
}

export const openSettings = () =>
  renderPage(<SettingsPage title="Settings" />, { url: '/settings', me: session('owner') });
