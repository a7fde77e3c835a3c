import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { listenLocal } from './http.ts';

// A stand-in for Twilio's Programmable Messaging REST API, run inside the test process: a real
// HTTP server that speaks the documented protocol — `POST /2010-04-01/Accounts/{Sid}/Messages.json`
// with HTTP Basic auth (Account SID + Auth Token, or API Key SID + secret) and a form-encoded body
// (`To`, `From` or `MessagingServiceSid`, `Body`, `StatusCallback`); a 201 with the Message
// resource as JSON; errors as `{code, message, more_info, status}`. After a 201 it calls the
// StatusCallback with `MessageSid`, `MessageStatus`, `SmsStatus`, `ErrorCode`…, form-encoded and
// signed with X-Twilio-Signature (HMAC-SHA1 of the URL and the sorted parameters, keyed with the
// auth token: the `twilio` package's own helper). Per number it can refuse with any error code,
// hang (the client times out), answer late, reset the connection, or send other receipts. It also
// plays the customers' side: a text to the service's number is posted to the inbound webhook,
// signed, and its Message resource is then readable at `GET …/Messages/{Sid}.json`, with the
// time Twilio received it (`date_created`), as the real API keeps it.

export type ReceiptStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';

export type NumberBehaviour =
  /** 201, then these receipts in order (default: sent, delivered). */
  | { kind: 'accept'; receipts?: ReceiptStatus[]; errorCode?: number; delayMs?: number }
  /** Refuse with this Twilio error code (its documented HTTP status). */
  | { kind: 'error'; code: number }
  /** Read the request and never answer. */
  | { kind: 'hang' }
  /** Read the request, then cut the connection. */
  | { kind: 'reset' };

export type RecordedMessage = {
  sid: string;
  accountSid: string;
  /** The user of HTTP Basic auth: the Account SID or an API Key SID. */
  authUser: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  /** What the fake answered: 201, an error status, or 0 when it did not answer. */
  answered: number;
};

export type CallbackResult = { url: string; params: Record<string, string>; status: number };

/** HTTP status of each Twilio error code the fake can answer with (twilio.com/docs/api/errors). */
export const TWILIO_ERROR_STATUS: Record<number, number> = {
  20003: 401, // Authenticate: wrong SID or token
  20005: 401, // Account not active (suspended)
  20429: 429, // Too Many Requests
  20500: 500, // Internal server error
  20503: 503, // Service unavailable
  21211: 400, // Invalid 'To' phone number
  21408: 400, // Permission to send an SMS has not been enabled for the region
  21606: 400, // The 'From' phone number is not a valid, SMS-capable number for this account
  21610: 400, // Attempt to send to unsubscribed recipient
  21614: 400, // 'To' number is not a valid mobile number
};

const ERROR_TEXT: Record<number, string> = {
  20003: 'Authenticate',
  20005: 'Account not active',
  20429: 'Too Many Requests',
  20500: 'An internal server error has occurred',
  20503: 'Service unavailable',
  21211: "Invalid 'To' Phone Number",
  21408: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number",
  21606:
    "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account",
  21610: 'Attempt to send to unsubscribed recipient',
  21614: "'To' number is not a valid mobile number",
};

export type FakeTwilioOptions = {
  accountSid?: string;
  authToken?: string;
  /** An API key the fake accepts besides the account's own credentials. */
  apiKey?: { sid: string; secret: string };
  /** Pause between a 201 and its first receipt, and between receipts (ms). */
  receiptDelayMs?: number;
  /** The receipts of a number without its own behaviour (default: sent, delivered). */
  receipts?: ReceiptStatus[];
};

export type FakeTwilio = {
  /** Put this in TWILIO_API_BASE. */
  url: string;
  accountSid: string;
  authToken: string;
  messages: RecordedMessage[];
  callbacks: CallbackResult[];
  /** Create calls that reached the fake for this number (answered or not). */
  count(to: string): number;
  /** How the fake treats messages to this number from now on (null: the default). */
  on(to: string, behaviour: NumberBehaviour | null): void;
  /** Posts a signed form to one of the service's webhooks, as Twilio would; returns the answer. */
  post(
    url: string,
    params: Record<string, string>,
    options?: { signature?: string | null },
  ): Promise<{ status: number; body: string }>;
  /**
   * A customer texting `body` from `from` to the business's number `to`, received by Twilio at
   * `at` (default now); `params` is what was posted (post it again to replay the webhook).
   */
  inbound(
    url: string,
    message: { from: string; to: string; body: string; at?: number },
  ): Promise<{ status: number; body: string; params: Record<string, string> }>;

  /** The signature Twilio would put on this request. */
  sign(url: string, params: Record<string, string>): string;
  /** Resolves when every receipt scheduled so far has been posted. */
  settled(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
};

function sid(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

function twilioError(res: ServerResponse, code: number): void {
  const status = TWILIO_ERROR_STATUS[code] ?? 400;
  const body = JSON.stringify({
    code,
    message: ERROR_TEXT[code] ?? `Error ${code}`,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The service's settings for texting through this fake Twilio from `from`. */
export function twilioSettings(
  fake: Pick<FakeTwilio, 'url' | 'accountSid' | 'authToken'>,
  from = '+15005550006',
) {
  return {
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM: from,
    TWILIO_API_BASE: fake.url,
  };
}

export async function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? sid('AC');
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const receiptDelayMs = options.receiptDelayMs ?? 5;
  const behaviours = new Map<string, NumberBehaviour>();
  const messages: RecordedMessage[] = [];
  const callbacks: CallbackResult[] = [];
  const pending = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const received = new Map<string, { from: string; to: string; body: string; at: number }>();
  const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');
  // Texts are received in the order sent, a second apart at least (date_created counts seconds).
  let lastReceived = 0;

  const sign = (url: string, params: Record<string, string>) =>
    getExpectedTwilioSignature(authToken, url, params);

  async function post(
    url: string,
    params: Record<string, string>,
    postOptions: { signature?: string | null } = {},
  ): Promise<{ status: number; body: string }> {
    const signature = postOptions.signature === undefined ? sign(url, params) : postOptions.signature;
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'TwilioProxy/1.1',
      'i-twilio-idempotency-token': randomBytes(8).toString('hex'),
    };
    if (signature !== null) headers['x-twilio-signature'] = signature;
    const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(params) });
    return { status: response.status, body: await response.text() };
  }

  function authorised(req: IncomingMessage): string | null {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return null;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const secret = rest.join(':');
    if (user === accountSid && secret === authToken) return user;
    if (options.apiKey && user === options.apiKey.sid && secret === options.apiKey.secret) return user;
    return null;
  }

  function scheduleReceipts(message: RecordedMessage, behaviour: NumberBehaviour): void {
    if (!message.statusCallback || behaviour.kind !== 'accept') return;
    const receipts = behaviour.receipts ?? ['sent', 'delivered'];
    const url = message.statusCallback;
    const run = (async () => {
      for (const status of receipts) {
        // Stand-in: Twilio calls back a moment after accepting.
        await new Promise((resolve) => setTimeout(resolve, receiptDelayMs));
        const params: Record<string, string> = {
          AccountSid: message.accountSid,
          ApiVersion: '2010-04-01',
          MessageSid: message.sid,
          SmsSid: message.sid,
          MessageStatus: status,
          SmsStatus: status,
          To: message.to,
        };
        if (message.from) params.From = message.from;
        if (message.messagingServiceSid) params.MessagingServiceSid = message.messagingServiceSid;
        if ((status === 'undelivered' || status === 'failed') && behaviour.errorCode) {
          params.ErrorCode = String(behaviour.errorCode);
        }
        try {
          const answer = await post(url, params);
          callbacks.push({ url, params, status: answer.status });
        } catch {
          callbacks.push({ url, params, status: 0 });
        }
      }
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  /** GET …/Messages/{Sid}.json: an inbound message's resource. */
  function readMessage(req: IncomingMessage, res: ServerResponse, account: string, messageSid: string): void {
    if (!authorised(req) || account !== accountSid) {
      twilioError(res, 20003);
      return;
    }
    const message = received.get(messageSid);
    if (!message) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 20404, message: 'The requested resource was not found', status: 404 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(
      JSON.stringify({
        account_sid: accountSid,
        api_version: '2010-04-01',
        body: message.body,
        date_created: rfc2822(message.at),
        date_sent: rfc2822(message.at),
        date_updated: rfc2822(message.at),
        direction: 'inbound',
        from: message.from,
        num_segments: '1',
        sid: messageSid,
        status: 'received',
        to: message.to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${messageSid}.json`,
      }),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/([^/]+)\.json$/.exec(req.url ?? '');
    if (read && req.method === 'GET') {
      await readBody(req);
      return readMessage(req, res, read[1]!, read[2]!);
    }
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
    const body = await readBody(req);
    if (!match || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 20404, message: 'The requested resource was not found', status: 404 }));
      return;
    }
    const authUser = authorised(req);
    if (!authUser || match[1] !== accountSid) return twilioError(res, 20003);
    const form = new URLSearchParams(body);
    const to = form.get('To') ?? '';
    const message: RecordedMessage = {
      sid: sid('SM'),
      accountSid,
      authUser,
      to,
      from: form.get('From'),
      messagingServiceSid: form.get('MessagingServiceSid'),
      body: form.get('Body') ?? '',
      statusCallback: form.get('StatusCallback'),
      answered: 0,
    };
    messages.push(message);
    const behaviour: NumberBehaviour = behaviours.get(to) ?? {
      kind: 'accept',
      ...(options.receipts ? { receipts: options.receipts } : {}),
    };
    if (behaviour.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (behaviour.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (behaviour.kind === 'error') {
      message.answered = TWILIO_ERROR_STATUS[behaviour.code] ?? 400;
      return twilioError(res, behaviour.code);
    }
    if (!to) {
      message.answered = 400;
      return twilioError(res, 21211);
    }
    if (!message.from && !message.messagingServiceSid) {
      message.answered = 400;
      return twilioError(res, 21606);
    }
    // Stand-in: a Twilio that takes this long to answer.
    if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    const now = new Date().toUTCString().replace('GMT', '+0000');
    const segments = message.body.length <= 160 ? 1 : Math.ceil(message.body.length / 153);
    message.answered = 201;
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
    res.end(
      JSON.stringify({
        account_sid: accountSid,
        api_version: '2010-04-01',
        body: message.body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: message.from,
        messaging_service_sid: message.messagingServiceSid,
        num_media: '0',
        num_segments: String(segments),
        price: null,
        price_unit: 'USD',
        sid: message.sid,
        status: message.messagingServiceSid ? 'accepted' : 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}/Media.json` },
        to: message.to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      }),
    );
    scheduleReceipts(message, behaviour);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) twilioError(res, 20500);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 60_000;
  const url = await listenLocal(server);

  return {
    url,
    accountSid,
    authToken,
    messages,
    callbacks,
    count: (to) => messages.filter((m) => m.to === to).length,
    on(to, behaviour) {
      if (behaviour) behaviours.set(to, behaviour);
      else behaviours.delete(to);
    },
    post,
    async inbound(url, message) {
      const messageSid = sid('SM');
      const at = message.at ?? Math.max(Date.now(), lastReceived + 1_000);
      lastReceived = Math.max(lastReceived, at);
      received.set(messageSid, { ...message, at });
      const params = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        Body: message.body,
        From: message.from,
        MessageSid: messageSid,
        NumMedia: '0',
        NumSegments: '1',
        SmsMessageSid: messageSid,
        SmsSid: messageSid,
        SmsStatus: 'received',
        To: message.to,
      };
      return { ...(await post(url, params)), params };
    },

    sign,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    reset() {
      behaviours.clear();
      messages.length = 0;
      callbacks.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
