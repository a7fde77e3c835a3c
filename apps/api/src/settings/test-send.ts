import { AppError } from '@review-desk/server/errors';
import {
  type MessageTemplates,
  renderEmail,
  renderSms,
  SAMPLE_CUSTOMER_NAME,
  type SettingsTestResult,
  settingsTestBodySchema,
  TEST_SENDS_PER_HOUR,
  type TemplateContext,
  templateProblems,
} from '@review-desk/shared';
import { z } from 'zod';
import type { CarrierOutcome, DeliveryProvider, OutgoingMessage } from '../delivery/provider.ts';
import type { SettingsStore } from './store.ts';

// POST /api/v1/settings/test (docs/settings.md, "Send me a test"): the words the owner is
// looking at — the templates in the body, each one left out read from the saved settings —
// written with a sample customer name and a sample link, handed once to the same delivery
// provider as the business's requests. Not a review request: no request row, no allowance, no
// frequency cap, no reminder. At most TEST_SENDS_PER_HOUR per business in any hour, counted in
// the settings_test_sends table (every test counts, even one the carrier refused).

export function createTestSends(deps: {
  settings: () => Promise<SettingsStore>;
  /** The business's saved words (or the built-in ones). */
  templatesFor(businessId: number): Promise<MessageTemplates>;
  /** The business's name and the sample link the preview uses. */
  contextFor(businessId: number): Promise<TemplateContext>;
  now: () => number;
}) {
  return {
    async send(businessId: number, body: unknown, delivery: DeliveryProvider): Promise<SettingsTestResult> {
      const parsed = settingsTestBodySchema.safeParse(body);
      if (!parsed.success) throw AppError.validation(parsed.error);
      const { channel, to, templates: edited = {} } = parsed.data;
      const context = await deps.contextFor(businessId);
      const templates = { ...(await deps.templatesFor(businessId)), ...edited };
      // The words sent are judged like a PUT's; the saved ones were judged when saved.
      const problems = Object.entries(templateProblems(templates, context)).filter(
        ([field]) => field in edited,
      );
      if (problems.length > 0) {
        throw AppError.validation(
          new z.ZodError(
            problems.map(([field, message]) => ({ code: 'custom', message, path: [field], input: '' })),
          ),
        );
      }
      const values = { ...context, customerName: SAMPLE_CUSTOMER_NAME };
      const message: OutgoingMessage =
        channel === 'sms'
          ? { channel, to, subject: null, body: renderSms(templates, values), reviewLink: context.reviewLink }
          : { channel, to, ...renderEmail(templates, values), reviewLink: context.reviewLink };

      const tests = (await deps.settings()).tests;
      const at = deps.now();
      const reserved = await tests.reserve(businessId, message, at, TEST_SENDS_PER_HOUR);
      if (!reserved.ok) {
        const seconds = Math.max(1, Math.ceil((reserved.retryAt - at) / 1000));
        throw new AppError(
          'test_send_limited',
          `At most ${TEST_SENDS_PER_HOUR} test messages per business in any hour: the next one can go in ${Math.ceil(seconds / 60)} minutes. Nothing was sent.`,
          { headers: { 'retry-after': String(seconds) } },
        );
      }
      let outcome: CarrierOutcome;
      try {
        outcome = delivery.decideNow?.(message) ?? (await delivery.deliver(message));
      } catch (error) {
        outcome = { status: 'failed', error: error instanceof Error ? error.message : 'Delivery failed.' };
      }
      if (outcome.status === 'failed') {
        await tests.finish(reserved.id, 'failed', outcome.error);
        throw new AppError('delivery_failed', `The test was not sent: ${outcome.error}`);
      }
      await tests.finish(
        reserved.id,
        outcome.status === 'unknown' ? 'unknown' : 'sent',
        outcome.status === 'unknown' ? outcome.error : null,
      );
      return {
        channel,
        to,
        status: outcome.status === 'unknown' ? 'unknown' : 'sent',
        error: outcome.status === 'unknown' ? outcome.error : null,
        remaining: reserved.remaining,
      };
    },
  };
}
