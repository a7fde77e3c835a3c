import { ENDPOINTS, ok, smsSegments } from '@review-desk/shared';
import { Router } from 'express';
import { type AppContext, sendContextOf } from '../context.ts';
import { jsonBody, methodNotAllowed, originRule, requireScope } from '../http/index.ts';
import { maskEmail, maskPhone } from '../http/mask.ts';
import { CANCEL, cancelHeldRequest } from './cancel.ts';
import { sendReviewRequest } from './send.ts';

// POST /api/v1/requests/send (docs/api.md): the send (send.ts), and its line in the debug log;
// DELETE /api/v1/requests/{id}: a held request cancelled (cancel.ts).

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
      const { result, legs } = await sendReviewRequest(sendContextOf(ctx), req.apiKey!, req.body);
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
      // 200 rather than 201: the API reference shows only the envelope, and callers test `success`.
      res.json(ok(result));
    },
  );

  // A DELETE changes state: the Origin rule, like a POST.
  router.delete(CANCEL.path, originRule(ctx), requireScope(ctx, CANCEL.scope), cancelHeldRequest(ctx));

  router.all(ENDPOINTS.send.path, methodNotAllowed([ENDPOINTS.send.method]));
  return router;
}
