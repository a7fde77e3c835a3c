import { SEND_FIELD_LABELS } from '@review-desk/shared';

// What Twilio's error codes mean for a review request, in words the business or the operator can
// act on (twilio.com/docs/api/errors). Two families: the REST API's answer to a send (21xxx,
// 20xxx: the message was not created) and the receipts' ErrorCode (30xxx: created, then not
// delivered). Pure table and functions; the provider and the webhook decide with them.

/** What a refused send means for the request. */
export type TwilioRefusal =
  /** The number cannot take SMS: the send is answered 400, naming customerPhone. */
  | { kind: 'invalid_number'; error: string }
  /** The recipient texted STOP to this sender: the contact is opted out, the send refused as such. */
  | { kind: 'opted_out'; error: string }
  /** Anything else: the SMS leg fails with this message (never retried blindly). */
  | { kind: 'failed'; error: string };

const CONSOLE = 'in Twilio’s console';
/** The phone field as the send form names it. */
const PHONE = SEND_FIELD_LABELS.customerPhone;

const SEND_ERRORS: Record<number, TwilioRefusal> = {
  21211: {
    kind: 'invalid_number',
    error: `${PHONE} is not a valid number for text messages (Twilio error 21211).`,
  },
  21614: {
    kind: 'invalid_number',
    error: `${PHONE} is not a mobile number and cannot receive text messages (Twilio error 21614).`,
  },
  21610: {
    kind: 'opted_out',
    error: 'The customer replied STOP to this sender: Twilio refuses to text them (error 21610).',
  },
  21408: {
    kind: 'failed',
    error: `The Twilio account may not text this country (error 21408): enable it under Messaging → Settings → Geo permissions ${CONSOLE}.`,
  },
  21612: {
    kind: 'failed',
    error: 'Twilio cannot route a text from this sender to this number (error 21612).',
  },
  21606: {
    kind: 'failed',
    error: `TWILIO_FROM is not an SMS-capable number of this Twilio account (error 21606): check it ${CONSOLE}.`,
  },
  21659: {
    kind: 'failed',
    error: `TWILIO_FROM is not a number of this Twilio account (error 21659): check it ${CONSOLE}.`,
  },
  20003: {
    kind: 'failed',
    error:
      'Twilio refused the service’s credentials (error 20003): check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (or the API key).',
  },
  20005: {
    kind: 'failed',
    error: `The Twilio account is not active (error 20005): check its balance and status ${CONSOLE}.`,
  },
  10001: {
    kind: 'failed',
    error: `The Twilio account is suspended (error 10001): check its balance and status ${CONSOLE}.`,
  },
  20429: {
    kind: 'failed',
    error:
      'Twilio is limiting this account’s requests (error 20429): the text was not sent; send it again later.',
  },
};

/** The meaning of Twilio's refusal of a send (its HTTP status and the `code` of its JSON). */
export function twilioRefusal(status: number, code: number | null, message: string | null): TwilioRefusal {
  if (code !== null && SEND_ERRORS[code]) return SEND_ERRORS[code];
  const said = message ? `: ${message}` : '';
  if (status === 401 || status === 403)
    return {
      kind: 'failed',
      error: `Twilio refused the service’s credentials (HTTP ${status}${said}): check TWILIO_ACCOUNT_SID and the token or API key.`,
    };
  if (status === 429)
    return {
      kind: 'failed',
      error: 'Twilio is limiting this account’s requests (HTTP 429): the text was not sent.',
    };
  if (status >= 500)
    return {
      kind: 'failed',
      error: `Twilio failed to take the text (HTTP ${status}): it was not sent. Send it again later.`,
    };
  return {
    kind: 'failed',
    error: `Twilio refused the text (${code !== null ? `error ${code}` : `HTTP ${status}`}${said}).`,
  };
}

/** The carrier's reasons a created message was not delivered (a receipt's ErrorCode). */
const RECEIPT_ERRORS: Record<string, string> = {
  '30001': 'Twilio’s queue for this sender overflowed; the text was dropped.',
  '30002': 'The Twilio account was suspended before the text went out.',
  '30003': 'The phone is switched off or out of reach.',
  '30004': 'The text was blocked: the customer blocks this sender, or the carrier does.',
  '30005': 'The number is not in service.',
  '30006': 'The number is a landline or its carrier cannot take texts.',
  '30007': 'The carrier filtered the text as spam.',
  '30008': 'The carrier could not deliver it and gave no reason.',
  '30010': 'The text cost more than the account’s maximum price.',
  '30032': 'The toll-free sender is not verified.',
  '30034': 'The sender’s US A2P 10DLC registration is missing.',
  '21610': 'The customer replied STOP to this sender.',
};

/** Words for a receipt's ErrorCode (undelivered or failed); the code is kept for support. */
export function receiptError(code: string | null | undefined): string {
  if (!code) return 'The carrier gave no reason.';
  const words = RECEIPT_ERRORS[code];
  return words ? `${words} (Twilio error ${code})` : `The carrier reported error ${code}.`;
}
