import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenLocal } from '../http.ts';
import {
  type Call,
  createFakeGoogleState,
  type FakeGoogleState,
  type FakeReview,
  locationKey,
} from './state.ts';

// A stand-in for Google, run inside the test process (or by `npm start`'s demo): a real HTTP
// server that speaks the documented wire shapes of
// - OAuth 2.0's token endpoint, `POST /token` (form: client_id, client_secret, refresh_token,
//   grant_type=refresh_token) → `{access_token, expires_in, scope, token_type: "Bearer"}`, or
//   400 `{error: "invalid_grant", error_description}` / 401 `{error: "invalid_client"}`;
// - the Business Profile API v4: `GET /v4/accounts/{a}/locations/{l}/reviews` (pageSize ≤ 50,
//   pageToken, orderBy `updateTime desc`) → `{reviews: [{name, reviewId, reviewer: {displayName,
//   isAnonymous}, starRating, comment, createTime, updateTime, reviewReply: {comment, updateTime}}],
//   averageRating, totalReviewCount, nextPageToken}`; `PUT …/reviews/{r}/reply` `{comment}` →
//   ReviewReply; `DELETE …/reviews/{r}/reply` → `{}`; refusals as `{error: {code, message,
//   status}}` (401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND, 400 INVALID_ARGUMENT,
//   429 RESOURCE_EXHAUSTED). A changed reply moves its review's updateTime (the stand-in's choice).

export type FakeGoogle = FakeGoogleState & {
  /** Put this in GOOGLE_API_BASE; `${url}/token` in GOOGLE_TOKEN_URL. */
  url: string;
  tokenUrl: string;
  calls: Call[];
  count(kind: Call['kind']): number;
  close(): Promise<void>;
};

const rfc3339 = (ms: number) => new Date(ms).toISOString();

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};
const MESSAGES: Record<number, string> = {
  401: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  429: 'Quota exceeded for quota metric \u2018Requests\u2019 and limit \u2018Requests per minute\u2019.',
  500: 'Internal error encountered.',
  503: 'The service is currently unavailable.',
};

function apiError(
  res: ServerResponse,
  status: number,
  message?: string,
  headers: Record<string, string> = {},
) {
  json(
    res,
    status,
    {
      error: {
        code: status,
        message: message ?? MESSAGES[status] ?? 'Error',
        status: STATUS_NAMES[status] ?? 'UNKNOWN',
      },
    },
    headers,
  );
}

function wire(account: string, location: string, review: FakeReview) {
  return {
    name: `accounts/${account}/locations/${location}/reviews/${review.reviewId}`,
    reviewId: review.reviewId,
    reviewer:
      review.displayName === null
        ? { isAnonymous: true }
        : { displayName: review.displayName, isAnonymous: false },
    starRating: review.starRating,
    ...(review.comment !== null ? { comment: review.comment } : {}),
    createTime: rfc3339(review.createTime),
    updateTime: rfc3339(review.updateTime),
    ...(review.reply
      ? { reviewReply: { comment: review.reply.comment, updateTime: rfc3339(review.reply.updateTime) } }
      : {}),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeGoogle(
  options: {
    clientId?: string;
    clientSecret?: string;
    now?: () => number;
    /** After a reply was put or deleted through the API (the demo keeps its state in a file). */
    onChange?: () => void;
    port?: number;
  } = {},
): Promise<FakeGoogle> {
  const state = createFakeGoogleState({
    clientId: options.clientId ?? 'fake-client.apps.googleusercontent.com',
    clientSecret: options.clientSecret ?? 'fake-client-secret',
    now: options.now ?? Date.now,
  });
  const calls: Call[] = [];
  const sockets = new Set<Socket>();

  function token(body: string, res: ServerResponse, call: Call) {
    const form = new URLSearchParams(body);
    if (form.get('client_id') !== state.clientId || form.get('client_secret') !== state.clientSecret) {
      call.status = 401;
      return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    }
    if (form.get('grant_type') !== 'refresh_token' || !form.get('refresh_token')) {
      call.status = 400;
      return json(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' });
    }
    const granted = state.grant(form.get('refresh_token') as string);
    if ('error' in granted) {
      call.status = 400;
      return json(res, 400, { error: granted.error, error_description: granted.description });
    }
    call.status = 200;
    json(res, 200, {
      access_token: granted.token,
      expires_in: granted.ttl,
      scope: 'https://www.googleapis.com/auth/business.manage',
      token_type: 'Bearer',
    });
  }

  function list(account: string, location: string, query: URLSearchParams, res: ServerResponse, call: Call) {
    const pageSize = Number(query.get('pageSize') ?? '50');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50) {
      call.status = 400;
      return apiError(res, 400, 'Invalid value at \u2018page_size\u2019');
    }
    const offset = query.get('pageToken')
      ? Number(Buffer.from(query.get('pageToken') as string, 'base64url').toString())
      : 0;
    const all = [...state.reviewsOf(account, location)].sort(
      (a, b) => b.updateTime - a.updateTime || a.reviewId.localeCompare(b.reviewId),
    );
    const page = all.slice(offset, offset + pageSize);
    const rated = all.filter((r) => r.starRating !== 'STAR_RATING_UNSPECIFIED');
    const average = rated.reduce(
      (sum, r) => sum + ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'].indexOf(r.starRating) + 1,
      0,
    );
    call.status = 200;
    json(res, 200, {
      reviews: page.map((r) => wire(account, location, r)),
      ...(rated.length > 0 ? { averageRating: Math.round((average / rated.length) * 10) / 10 } : {}),
      totalReviewCount: all.length,
      ...(offset + pageSize < all.length
        ? { nextPageToken: Buffer.from(String(offset + pageSize)).toString('base64url') }
        : {}),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = await readBody(req);
    const match = /^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews(?:\/([^/]+)\/reply)?$/.exec(
      url.pathname,
    );
    const kind: Call['kind'] =
      url.pathname === '/token' && req.method === 'POST'
        ? 'token'
        : match && !match[3] && req.method === 'GET'
          ? 'list'
          : match?.[3] && req.method === 'PUT'
            ? 'reply'
            : match?.[3] && req.method === 'DELETE'
              ? 'delete'
              : 'other';
    const call: Call = {
      kind,
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
    };
    if (kind === 'reply') {
      try {
        call.comment = (JSON.parse(body) as { comment?: string }).comment;
      } catch {}
    }
    calls.push(call);
    const fault = state.takeFault(kind);
    if (fault?.kind === 'hang') return; // never answered: the socket is closed with the server
    if (fault?.kind === 'status') {
      call.status = fault.status;
      if (kind === 'token') return json(res, fault.status, { error: fault.message ?? 'server_error' });
      return apiError(
        res,
        fault.status,
        fault.message,
        fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      );
    }
    if (kind === 'token') return token(body, res, call);
    if (kind === 'other' || !match) {
      call.status = 404;
      return apiError(res, 404);
    }
    const [account, location, reviewId] = [
      match[1] as string,
      match[2] as string,
      match[3] && decodeURIComponent(match[3]),
    ];
    const granted = state.bearer(req.headers.authorization);
    if (granted === 'unauthenticated') {
      call.status = 401;
      return apiError(res, 401, undefined, {
        'www-authenticate': 'Bearer realm="https://accounts.google.com/"',
      });
    }
    if (!granted.has(locationKey(account, location))) {
      call.status = 403;
      return apiError(res, 403);
    }
    if (!state.exists(account, location)) {
      call.status = 404;
      return apiError(res, 404);
    }
    if (kind === 'list') return list(account, location, url.searchParams, res, call);
    const review = state.find(account, location, reviewId as string);
    if (!review) {
      call.status = 404;
      return apiError(res, 404);
    }
    if (kind === 'delete') {
      state.setReply(review, null);
      options.onChange?.();
      call.status = 200;
      if (fault?.kind === 'reset') return req.socket.destroy();
      return json(res, 200, {});
    }
    let comment: unknown;
    try {
      comment = (JSON.parse(body) as { comment?: unknown }).comment;
    } catch {}
    if (typeof comment !== 'string' || comment.trim() === '' || comment.length > 4096) {
      call.status = 400;
      return apiError(res, 400, 'Request contains an invalid argument.');
    }
    state.setReply(review, comment);
    options.onChange?.();
    call.status = 200;
    if (fault?.kind === 'reset') return req.socket.destroy();
    json(res, 200, { comment, updateTime: rfc3339((review.reply as { updateTime: number }).updateTime) });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) apiError(res, 500);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const url = await listenLocal(server);
  return Object.assign(state, {
    url,
    tokenUrl: `${url}/token`,
    calls,
    count: (kind: Call['kind']) => calls.filter((c) => c.kind === kind).length,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The service's settings for talking to this stand-in. */
export function googleSettings(fake: Pick<FakeGoogle, 'url' | 'tokenUrl' | 'clientId' | 'clientSecret'>) {
  return {
    GOOGLE_API_BASE: fake.url,
    GOOGLE_TOKEN_URL: fake.tokenUrl,
    GOOGLE_CLIENT_ID: fake.clientId,
    GOOGLE_CLIENT_SECRET: fake.clientSecret,
  };
}
