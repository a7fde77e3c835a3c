import { BFF_INTEGRATION_PATHS, type WebhookAction } from '@review-desk/shared/integrations';
import {
  type WebhookCreate,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookListSchema,
  webhookSecretSchema,
} from '@review-desk/shared/webhooks';
import { z } from '@review-desk/shared/zod';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, request } from '../../../lib/http.ts';

// The business's webhook endpoints through /bff/webhooks (owners): listed, added (the secret in
// the answer, shown once), removed, rotated, resumed, sent a test event; each one's delivery log
// a page at a time, and "send again".

const path = (template: string, id: string, more: Record<string, string> = {}) =>
  Object.entries({ id, ...more }).reduce((p, [k, v]) => p.replace(`:${k}`, encodeURIComponent(v)), template);

export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: (id: string, page: number) => [...webhookKeys.all, id, 'deliveries', page] as const,
};

export function useWebhooks() {
  return useQuery(
    queryOptions({
      queryKey: webhookKeys.all,
      queryFn: ({ signal }) => getJson(BFF_INTEGRATION_PATHS.webhooks, webhookListSchema, signal),
    }),
  );
}

export function useDeliveries(id: string, page: number) {
  return useQuery(
    queryOptions({
      queryKey: webhookKeys.deliveries(id, page),
      queryFn: ({ signal }) =>
        getJson(
          `${path(BFF_INTEGRATION_PATHS.deliveries, id)}?page=${page}&limit=10`,
          webhookDeliveryListSchema,
          signal,
        ),
      placeholderData: keepPreviousData,
      refetchInterval: (query) =>
        query.state.data?.deliveries.some((d) => d.state === 'pending' || d.state === 'delivering')
          ? 3_000
          : false,
    }),
  );
}

export function useWebhookChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  return {
    create: useMutation({
      mutationFn: async (body: WebhookCreate) =>
        (await request(BFF_INTEGRATION_PATHS.webhooks, webhookSecretSchema, { method: 'POST', body })).data,
      onSuccess: refresh,
    }),
    act: useMutation({
      mutationFn: async ({ id, action }: { id: string; action: WebhookAction | 'remove' }) =>
        action === 'remove'
          ? (await request(path(BFF_INTEGRATION_PATHS.webhook, id), z.unknown(), { method: 'DELETE' })).data
          : (
              await request(
                path(BFF_INTEGRATION_PATHS.webhookAction, id, { action }),
                action === 'rotate'
                  ? webhookSecretSchema
                  : action === 'test'
                    ? webhookDeliverySchema
                    : webhookEndpointSchema,
                { method: 'POST' },
              )
            ).data,
      onSuccess: refresh,
    }),
    resend: useMutation({
      mutationFn: async ({ id, delivery }: { id: string; delivery: string }) =>
        (
          await request(path(BFF_INTEGRATION_PATHS.resend, id, { delivery }), webhookDeliverySchema, {
            method: 'POST',
          })
        ).data,
      onSuccess: refresh,
    }),
  };
}
