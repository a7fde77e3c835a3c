import { AppError } from '@review-desk/server/errors';
import { ENDPOINTS, ok, quietHoursToWindow, sendRequestSchema, smsSegments } from '@review-desk/shared';
import { Router } from 'express';
import { type AppContext, sendContextOf } from '../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../http/index.ts';
import { maskEmail, maskPhone } from '../http/mask.ts';
import { sendReviewRequest } from './send.ts';

// POST /api/v1/requests/send (docs/api.md): the body validated with the shared schema (400 names
// every offending field), then the send.

export function sendRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post(
    ENDPOINTS.send.path,
    // docs/api.md before the key: like browser-style CSRF middleware, a POST without an accepted
    // Origin is refused whatever it carries (docs/decisions/0001-api-origin-rule-before-auth.md).
    originRule(ctx),
    requireScope(ctx, ENDPOINTS.send.scope),
    ...jsonBody(),
    async (req, res) => {
      const parsed = sendRequestSchema.safeParse(req.body);
      if (!parsed.success) throw AppError.validation(parsed.error);
      const key = req.apiKey!;
      const settings = await ctx.settings.settingsOf(key.businessId, key.business);
      const { result, legs, request } = await sendReviewRequest(
        sendContextOf(ctx, {
          templates: settings,
          // Read once above: the words, the sending hours and the reminder of one settings row.
          quietHoursFor: async () => ({
            window: quietHoursToWindow(settings.quietHours),
            timeZone: settings.timeZone,
          }),
        }),
        key,
        parsed.data,
      );
      // Built only when it is written: counting segments is work a send at info level skips.
      if (ctx.logger.isLevelEnabled('debug'))
        ctx.logger.debug(
          {
            reqId: req.id,
            requestId: result.requestId,
            channel: result.channel,
            legs: legs.map((l) => ({
              channel: l.message.channel,
              to: l.message.channel === 'sms' ? maskPhone(l.message.to) : maskEmail(l.message.to),
              status: l.outcome.status,
              // An SMS's parts as counted here (GSM-7, or UCS-2 when a character needs it) and as billed.
              ...(l.message.channel === 'sms'
                ? {
                    segments: smsSegments(l.message.body).segments,
                    encoding: smsSegments(l.message.body).encoding,
                  }
                : {}),
              ...(l.outcome.status === 'accepted' && l.outcome.segments
                ? { billedSegments: l.outcome.segments }
                : {}),
            })),
          },
          'review request sent',
        );
      // Its reminder, if the business has one. The send stands whatever happens here.
      try {
        await ctx.reminders.schedule(request, settings.reminderAfterDays);
      } catch (error) {
        ctx.logger.warn({ err: error, requestId: result.requestId }, 'scheduling the reminder failed');
      }
      // 200 rather than 201: the API reference shows only the envelope, and callers test `success`.
      res.json(ok(result));
    },
  );

  router.all(ENDPOINTS.send.path, methodNotAllowed([ENDPOINTS.send.method]));
  return router;
}
