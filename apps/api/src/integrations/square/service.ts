import { randomBytes } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import type { SecretBox } from '@review-desk/server/secrets';
import {
  AUTOMATIC_DELAY_MINUTES_DEFAULT,
  type Integration,
  SQUARE_CONNECTION_PATTERN,
  SQUARE_WEBHOOK_PATH,
  squareUpdateSchema,
} from '@review-desk/shared';
import type { BusinessRow } from '../../accounts/businesses-store.ts';
import { alreadyRequested } from '../../requests/answer.ts';
import type { Origin } from '../../requests/origins.ts';
import type { Sender } from '../../requests/validate.ts';
import type { Store } from '../../store/index.ts';
import type { SquareConfig } from './config.ts';
import { decide, paymentNotice } from './notification.ts';
import { squareSigned } from './signature.ts';
import type { SquareRow } from './store.ts';

// Square for a business (docs/settings.md, "Integrations"): connected with its subscription's
// signature key (and, to read a payment's customer, an access token), both sealed; automatic
// sends off until turned on, after the business's delay. A notification is checked against the
// signature key over PUBLIC_ORIGIN/webhooks/square/<id> and the raw body; a completed payment
// with a reachable customer becomes a request with the payment's id as its externalId, so a
// notification Square sends twice is still one request.

type Send = (
  sender: Sender,
  body: Record<string, unknown>,
  source: Origin['source'],
) => Promise<{ result: { requestId: string; status: string; existing?: boolean } }>;

export type SquareReply = { status: number; data: Record<string, unknown> };

export function createSquare(deps: {
  store: Store;
  box: SecretBox;
  config: SquareConfig;
  publicOrigin: () => string;
  now: () => number;
  send: Send;
}) {
  const { store, box } = deps;
  const notificationUrl = (row: SquareRow) => `${deps.publicOrigin()}${SQUARE_WEBHOOK_PATH}/${row.id}`;

  async function view(businessId: number): Promise<Integration> {
    const row = await store.square.of(businessId);
    return {
      source: 'square',
      connected: row !== undefined,
      notificationUrl: row ? notificationUrl(row) : null,
      readsCustomers: row?.access_token != null,
      automaticSends: row?.automatic_sends === 1,
      delayMinutes: row?.delay_minutes ?? AUTOMATIC_DELAY_MINUTES_DEFAULT,
      connectedAt: row ? new Date(row.connected_at).toISOString() : null,
      lastEventAt: row?.last_event_at ? new Date(row.last_event_at).toISOString() : null,
      requests: await store.origins.countFrom(businessId, 'square'),
    };
  }

  return {
    list: async (businessId: number) => ({ integrations: [await view(businessId)] }),

    async update(businessId: number, body: unknown): Promise<Integration> {
      const parsed = squareUpdateSchema.safeParse(body);
      if (!parsed.success) throw AppError.validation(parsed.error);
      const change = parsed.data;
      const before = await store.square.of(businessId);
      if (!before && !change.signatureKey) {
        const message = 'signatureKey is required to connect Square';
        throw new AppError('validation_failed', message, { fields: { signatureKey: message } });
      }
      const id = before?.id ?? `sq_${randomBytes(16).toString('base64url')}`;
      const token =
        change.accessToken === undefined
          ? (before?.access_token ?? null)
          : change.accessToken && box.seal(change.accessToken, `square-token:${id}`);
      await store.square.save({
        id,
        businessId,
        signatureKey: change.signatureKey
          ? box.seal(change.signatureKey, `square:${id}`)
          : before!.signature_key,
        accessToken: token,
        automaticSends: change.automaticSends ?? before?.automatic_sends === 1,
        delayMinutes: change.delayMinutes ?? before?.delay_minutes ?? AUTOMATIC_DELAY_MINUTES_DEFAULT,
        at: deps.now(),
      });
      return view(businessId);
    },

    async disconnect(businessId: number): Promise<Integration> {
      if (!(await store.square.remove(businessId))) throw new AppError('integration_not_connected');
      return view(businessId);
    },

    /** POST /webhooks/square/<id>: the notification checked, then acted on (or not, and why). */
    async receive(connectionId: string, raw: Buffer, signature: string | undefined): Promise<SquareReply> {
      const row = SQUARE_CONNECTION_PATTERN.test(connectionId)
        ? await store.square.byId(connectionId)
        : undefined;
      if (!row) throw new AppError('integration_not_connected');
      if (
        !squareSigned(box.open(row.signature_key, `square:${row.id}`), notificationUrl(row), raw, signature)
      )
        throw new AppError('square_signature_invalid');
      let event: unknown;
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('malformed_json');
      }
      const now = deps.now();
      const notice = paymentNotice(event);
      if (typeof notice === 'string') return { status: 200, data: { acted: false, reason: notice } };
      const decision = await decide(notice, now, {
        config: deps.config,
        accessToken: row.access_token && box.open(row.access_token, `square-token:${row.id}`),
        automaticSends: row.automatic_sends === 1,
      });
      if (decision.kind === 'stale') throw new AppError('square_event_stale');
      await store.square.heard(row.id, now);
      if (decision.kind === 'unavailable')
        throw new AppError(
          'integration_unavailable',
          `${decision.reason}: Square sends the notification again.`,
        );
      if (decision.kind === 'ignored')
        return { status: 200, data: { acted: false, reason: decision.reason } };
      const business = (await store.businesses.byId(row.business_id)) as BusinessRow;
      const body = {
        ...decision.body,
        externalId: decision.paymentId,
        ...(row.delay_minutes > 0 ? { delayMinutes: row.delay_minutes } : {}),
      };
      try {
        const { result } = await deps.send({ id: null, businessId: business.id, business }, body, {
          name: 'square',
          id: decision.paymentId,
        });
        return { status: 200, data: { acted: true, requestId: result.requestId, status: result.status } };
      } catch (error) {
        // Refused for the customer (opted out, capped, the month's allowance): nothing to retry.
        if (error instanceof AppError && !alreadyRequested(error) && error.status < 500)
          return { status: 200, data: { acted: false, reason: error.code } };
        throw error;
      }
    },
  };
}
export type Square = ReturnType<typeof createSquare>;
