import http from 'node:http';
import https from 'node:https';
import type { CarrierOutcome, OutgoingMessage } from './provider.ts';
import { twilioRefusal } from './twilio-errors.ts';

// Text messages through Twilio's Programmable Messaging REST API:
// POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth, a
// form-encoded To, From (or MessagingServiceSid), Body and StatusCallback; 201 with the Message
// resource (its `sid` is what the receipts name), or an error `{code, message, status}`.
//
// The request is made with node:http(s) on a keep-alive agent rather than the `twilio` package's
// REST client, because what matters most here is telling apart "the request never left" (a
// refused connection: the text was not sent) from "it left and no answer came" (a timeout or a
// reset: it may have been sent). Twilio's Messages API takes no idempotency key, so the second
// case is recorded as `unknown` and never sent again automatically (docs/api.md, "Going live").
// The package is used for what it does well: checking the webhooks' signatures (webhooks.ts).

/** Twilio's settings, read by config.ts from the TWILIO_* variables. */
export type TwilioConfig = {
  accountSid: string;
  /** Verifies webhooks; also the password of sends without an API key. */
  authToken: string;
  /** Who sends: the account itself or an API key. */
  username: string;
  password: string;
  from: string | null;
  messagingServiceSid: string | null;
  apiBase: string;
  timeoutMs: number;
};

export type TwilioProviderOptions = TwilioConfig & {
  /** The status callback URL, PUBLIC_ORIGIN + /webhooks/twilio/status (known once bound). */
  statusCallback: () => string;
};

type Answer = { status: number; body: string };

/** Sockets kept open to Twilio: enough for hundreds of sends a second without a handshake each. */
const MAX_SOCKETS = 64;

export type TwilioSender = {
  name: 'twilio';
  deliver(message: OutgoingMessage): Promise<CarrierOutcome>;
  close(): Promise<void>;
};

export function twilioProvider(options: TwilioProviderOptions): TwilioSender {
  const base = new URL(options.apiBase);
  const client = base.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, keepAliveMsecs: 10_000 });
  const path = `${base.pathname.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;

  /** Resolves with Twilio's answer; rejects with `sent: true` when the request may have arrived. */
  function post(form: URLSearchParams): Promise<Answer> {
    const body = form.toString();
    return new Promise((resolve, reject) => {
      let wrote = false;
      const request = client.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port || undefined,
          method: 'POST',
          path,
          agent,
          headers: {
            authorization,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'review-desk',
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', (error) => reject(Object.assign(error, { sent: true })));
        },
      );
      request.setTimeout(options.timeoutMs, () =>
        request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT', sent: wrote })),
      );
      request.on('error', (error: Error & { sent?: boolean }) =>
        reject(Object.assign(error, { sent: error.sent ?? wrote })),
      );
      request.end(body, () => {
        wrote = true;
      });
    });
  }

  async function deliver(message: OutgoingMessage): Promise<CarrierOutcome> {
    if (message.channel !== 'sms') throw new Error('The Twilio provider carries text messages only');
    const form = new URLSearchParams({ To: message.to, Body: message.body });
    if (options.messagingServiceSid) form.set('MessagingServiceSid', options.messagingServiceSid);
    else form.set('From', options.from as string);
    form.set('StatusCallback', options.statusCallback());
    let answer: Answer;
    try {
      answer = await post(form);
    } catch (error) {
      const failure = error as Error & { code?: string; sent?: boolean };
      if (failure.sent) {
        return {
          status: 'unknown',
          error:
            failure.code === 'ETIMEDOUT'
              ? `Twilio did not answer within ${options.timeoutMs} ms: the text may have been sent. It is not sent again automatically.`
              : `The connection to Twilio was lost before it answered (${failure.code ?? failure.message}): the text may have been sent. It is not sent again automatically.`,
        };
      }
      return {
        status: 'failed',
        error: `Twilio could not be reached (${failure.code ?? failure.message}): the text was not sent.`,
      };
    }
    let json: { sid?: unknown; status?: unknown; code?: unknown; message?: unknown; num_segments?: unknown } =
      {};
    try {
      json = JSON.parse(answer.body);
    } catch {
      // A proxy's HTML page or an empty body: decided on the status alone.
    }
    if (answer.status === 200 || answer.status === 201) {
      if (typeof json.sid !== 'string') {
        return {
          status: 'unknown',
          error: 'Twilio accepted the text but its answer named no message: its outcome cannot be followed.',
        };
      }
      return {
        status: 'accepted',
        providerMessageId: json.sid,
        // `queued` (a number) or `accepted` (a Messaging Service): both wait for the carrier.
        state: 'queued',
        ...(typeof json.num_segments === 'string' ? { segments: Number(json.num_segments) } : {}),
      };
    }
    const refusal = twilioRefusal(
      answer.status,
      typeof json.code === 'number' ? json.code : null,
      typeof json.message === 'string' ? json.message.slice(0, 300) : null,
    );
    return {
      status: 'failed',
      error: refusal.error,
      ...(refusal.kind !== 'failed' ? { refusal: refusal.kind } : {}),
      ...(typeof json.code === 'number' ? { errorCode: String(json.code) } : {}),
    };
  }

  return {
    name: 'twilio',
    deliver,
    async close() {
      agent.destroy();
    },
  };
}
