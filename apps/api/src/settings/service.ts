import { AppError } from '@review-desk/server/errors';
import {
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_SMS_TEMPLATE,
  formatSendWindow,
  type MessageTemplates,
  parseSendWindow,
  quietHoursToWindow,
  type SendWindow,
  type Settings,
  type SettingsResponse,
  settingsSchemaFor,
  settingsUpdateSchema,
  type TemplateContext,
  windowToQuietHours,
} from '@review-desk/shared';
import { z } from 'zod';
import type { DeliveryProvider } from '../delivery/provider.ts';
import type { Store } from '../store/index.ts';
import type { SettingsStore, StoredSettings } from './store.ts';
import { createTestSends } from './test-send.ts';

// A business's effective settings: what it set, else the service's defaults (QUIET_HOURS,
// BUSINESS_TIME_ZONE, REMINDER_AFTER_DAYS and the built-in words). The review site address is
// the business's own column. Every reader goes through here: the send path for the words,
// scheduling for the sending window (`quietHoursFor`), the reminder for its delay.

export type SettingsDefaults = {
  quietHours: SendWindow | null;
  timeZone: string;
  reminderAfterDays: number;
};

/** Review links carry 32 random bytes, 43 characters: the example has the same length. */
const EXAMPLE_TOKEN = 'Xy7Qp2Lm9Rt4Vb6Nc8Kd3Hf5Jg1Ws0Ze-Ua_Ob2Ic4E';

export type SettingsService = ReturnType<typeof createSettingsService>;

export function createSettingsService(deps: {
  /** The settings table, opened on first use. */
  settings: () => Promise<SettingsStore>;
  /** The service's own store: the business's name and review site address. */
  store: Store;
  defaults: SettingsDefaults;
  publicOrigin: () => string;
  now: () => number;
}) {
  const { defaults } = deps;

  const context = (businessName: string): TemplateContext => ({
    businessName,
    reviewLink: `${deps.publicOrigin()}/r/${EXAMPLE_TOKEN}`,
  });

  function effective(stored: StoredSettings | undefined, reviewUrl: string | null): Settings {
    return {
      smsTemplate: stored?.smsTemplate ?? DEFAULT_SMS_TEMPLATE,
      emailSubject: stored?.emailSubject ?? DEFAULT_EMAIL_SUBJECT,
      emailTemplate: stored?.emailTemplate ?? DEFAULT_EMAIL_TEMPLATE,
      reminderAfterDays: stored?.reminderAfterDays ?? defaults.reminderAfterDays,
      quietHours: windowToQuietHours(
        stored?.quietHours != null ? parseSendWindow(stored.quietHours) : defaults.quietHours,
      ),
      timeZone: stored?.timeZone ?? defaults.timeZone,
      reviewSiteUrl: reviewUrl,
    };
  }

  async function businessOf(businessId: number) {
    const business = await deps.store.businesses.byId(businessId);
    if (!business) throw new AppError('not_found');
    return business;
  }

  /** The business's settings; `business`, when the caller has just read it, saves reading it again. */
  async function settingsOf(businessId: number, business?: { review_url: string | null }): Promise<Settings> {
    const { review_url } = business ?? (await businessOf(businessId));
    return effective(await (await deps.settings()).get(businessId), review_url);
  }

  async function answer(businessId: number): Promise<SettingsResponse> {
    const business = await businessOf(businessId);
    const stored = await (await deps.settings()).read(businessId);
    return { settings: effective(stored, business.review_url), preview: context(business.name) };
  }

  /** The words and the hours: they need no business row (only the review site address does). */
  async function ownSettings(businessId: number): Promise<Settings> {
    return effective(await (await deps.settings()).get(businessId), null);
  }

  async function templatesFor(businessId: number): Promise<MessageTemplates> {
    const { smsTemplate, emailSubject, emailTemplate } = await ownSettings(businessId);
    return { smsTemplate, emailSubject, emailTemplate };
  }

  const tests = createTestSends({
    settings: deps.settings,
    templatesFor,
    contextFor: async (businessId) => context((await businessOf(businessId)).name),
    now: deps.now,
  });

  return {
    settingsOf,
    /** Hears the settings other processes save, so this one drops its cached copy (stop: close). */
    listen: async () => (await deps.settings()).listen(),
    /** GET /api/v1/settings. */
    answer,

    /** The sending window (null: any hour) and the zone its times are read in. */
    async quietHoursFor(businessId: number): Promise<{ window: SendWindow | null; timeZone: string }> {
      const settings = await ownSettings(businessId);
      return { window: quietHoursToWindow(settings.quietHours), timeZone: settings.timeZone };
    },

    /** The words of this business's messages. */
    templatesFor,

    /** POST /api/v1/settings/test: the words on the owner's screen, once, to the owner (test-send.ts). */
    sendTest(businessId: number, body: unknown, delivery: DeliveryProvider) {
      return tests.send(businessId, body, delivery);
    },

    /** The tests sent, for the development outbox. */
    async testSends(filter: { to?: string | undefined; id?: number | undefined }, limit: number) {
      return (await deps.settings()).tests.list(filter, limit);
    },

    /**
     * PUT /api/v1/settings: any of the fields; those left out keep their values. Refused as a
     * whole (400, each offending field named) or stored as a whole.
     */
    async update(businessId: number, body: unknown): Promise<SettingsResponse> {
      const parsed = settingsUpdateSchema.safeParse(body);
      if (!parsed.success) throw AppError.validation(parsed.error);
      const update = parsed.data;
      const business = await businessOf(businessId);
      const table = await deps.settings();
      const stored = await table.read(businessId);
      const merged = { ...effective(stored, business.review_url), ...update };
      const checked = settingsSchemaFor(context(business.name)).safeParse(merged);
      if (!checked.success) {
        // A field the caller did not send keeps its value even if it would not pass today (the
        // business was renamed since): only the fields sent are judged.
        const issues = checked.error.issues.filter((issue) => String(issue.path[0]) in update);
        if (issues.length > 0) throw AppError.validation(new z.ZodError(issues));
      }
      const has = (field: keyof Settings) => field in update;
      await table.save(businessId, {
        smsTemplate: has('smsTemplate') ? merged.smsTemplate : (stored?.smsTemplate ?? null),
        emailSubject: has('emailSubject') ? merged.emailSubject : (stored?.emailSubject ?? null),
        emailTemplate: has('emailTemplate') ? merged.emailTemplate : (stored?.emailTemplate ?? null),
        reminderAfterDays: has('reminderAfterDays')
          ? merged.reminderAfterDays
          : (stored?.reminderAfterDays ?? null),
        quietHours: has('quietHours')
          ? formatSendWindow(quietHoursToWindow(merged.quietHours))
          : (stored?.quietHours ?? null),
        timeZone: has('timeZone') ? merged.timeZone : (stored?.timeZone ?? null),
        updatedAt: deps.now(),
      });
      if (has('reviewSiteUrl')) await deps.store.businesses.setReviewUrl(businessId, merged.reviewSiteUrl);
      return answer(businessId);
    },
  };
}
