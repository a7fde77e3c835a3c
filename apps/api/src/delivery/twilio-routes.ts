import { AppError } from '@review-desk/server/errors';
import express, { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { maskPhone } from '../http/mask.ts';
import { inboundMessage } from './twilio-messages.ts';
import { inboundKeyword, messageSidOf, twilioReceipt, twilioSignatureValid } from './twilio-webhooks.ts';

// Twilio's webhooks (public, no API key; served with SMS_PROVIDER=twilio): the status callback of
// each text (its receipts) and the inbound texts of the service's number (STOP and START). Each
// call must carry Twilio's signature over PUBLIC_ORIGIN + the path it called; anything else is
// refused with 403 and records nothing. An answer other than 2xx makes Twilio retry, so a call
// about a message the service does not know is acknowledged and logged, never a 500.

export const TWILIO_WEBHOOKS = {
  status: '/webhooks/twilio/status',
  inbound: '/webhooks/twilio/inbound',
} as const;

/** Twilio's forms are small; anything larger is not Twilio. */
const FORM_LIMIT = '32kb';
/** At most this many fields are read from a form (bounds the work of an unsigned flood). */
const FORM_FIELDS = 100;

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

function formParams(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') params[name] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') params[name] = value[0];
  }
  return params;
}

export function twilioWebhookRoutes(ctx: AppContext): Router {
  const router = Router();
  const twilio = ctx.config.twilio;
  if (!twilio) return router;
  const parse = express.urlencoded({
    extended: false,
    limit: FORM_LIMIT,
    parameterLimit: FORM_FIELDS,
    type: () => true,
  });

  /** The signed form of a genuine Twilio call, or a 403. */
  function signed(req: Request): Record<string, string> {
    const params = formParams(req);
    const url = `${ctx.site.publicOrigin}${req.originalUrl}`;
    const signature = req.get('x-twilio-signature');
    if (!twilioSignatureValid(twilio!.authToken, url, signature, params)) {
      ctx.logger.warn(
        { reqId: req.id, path: req.path, signed: Boolean(signature) },
        'a Twilio webhook call was refused: its signature does not match',
      );
      throw new AppError('webhook_signature_invalid');
    }
    return params;
  }

  router.post(TWILIO_WEBHOOKS.status, parse, async (req, res) => {
    const params = signed(req);
    const receipt = twilioReceipt(params);
    if (!receipt) {
      ctx.logger.info(
        { reqId: req.id, status: params.MessageStatus ?? null },
        'a Twilio status callback with nothing to record',
      );
      res.status(204).end();
      return;
    }
    const delivery = await ctx.tracker.store();
    const result = await delivery.applyReceipt(
      receipt.messageSid,
      receipt.state,
      receipt.errorCode,
      receipt.error,
      ctx.now(),
    );
    if (result === 'dropped')
      ctx.logger.warn(
        { reqId: req.id, messageSid: receipt.messageSid, status: receipt.status },
        'a Twilio status callback names no message this service recorded, and too many are held; acknowledged',
      );
    else
      ctx.logger.debug(
        {
          reqId: req.id,
          messageSid: receipt.messageSid,
          status: receipt.status,
          result,
        },
        'Twilio receipt',
      );
    res.status(204).end();
  });

  // STOP and START apply to the number (or Messaging Service) that received them, for every
  // business sending from it, whether or not one had texted the phone (decision 0028). Each
  // message applies once, and by the time Twilio received it: an older one, however late or
  // often it arrives, never undoes a newer one.
  router.post(TWILIO_WEBHOOKS.inbound, parse, async (req, res) => {
    const params = signed(req);
    const keyword = inboundKeyword(params.Body);
    const phone = params.From ?? '';
    const sender = params.MessagingServiceSid ?? params.To ?? '';
    const messageSid = messageSidOf(params);
    if (keyword && phone && sender && messageSid) {
      const optOut = keyword === 'opt_out';
      const found = await inboundMessage(twilio!, messageSid);
      const from = maskPhone(phone);
      if (found === null && !optOut) {
        // Undated, a START could be an old one replayed: the phone stays opted out for now.
        ctx.logger.warn(
          { reqId: req.id, from, messageSid },
          'an inbound START could not be read back from Twilio: not applied; Twilio may send it again',
        );
        throw new AppError('unavailable', 'The carrier could not confirm this message; send it again later.');
      }
      if (found !== null && found.from !== phone) {
        ctx.logger.warn(
          { reqId: req.id, from, messageSid },
          'an inbound message Twilio records from another phone: ignored',
        );
      } else {
        const delivery = await ctx.tracker.store();
        // A STOP Twilio cannot date is applied now: an opt-out never waits.
        const messageAt = found?.receivedAt ?? ctx.now();
        const changed = await delivery.applyNumberKeyword({
          sender,
          phone,
          optOut,
          messageSid,
          messageAt,
          at: ctx.now(),
        });
        ctx.logger.info(
          { reqId: req.id, from, sender, keyword, messageSid, applied: changed },
          !changed
            ? 'a STOP or START already applied, or older than the last one: nothing changed'
            : optOut
              ? 'a customer texted STOP: opted out of the number'
              : 'a customer texted START: opted in again',
        );
      }
    }
    res.status(200).type('text/xml').send(EMPTY_TWIML);
  });

  return router;
}
