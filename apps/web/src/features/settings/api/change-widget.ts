import { BFF_WIDGET_PATHS, type HideReason, hiddenPath } from '@review-desk/shared/widget';
import { type WidgetOwner, widgetOwnerSchema } from '@review-desk/shared/widget-schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { widgetKeys } from './get-widget.ts';

// The owner's changes to the website widget (owners): the switch (PUT /bff/widget), hiding a
// review for a content reason (PUT /bff/widget/hidden/{id}) and showing it again (DELETE). Each
// answers the widget as it is now, which replaces the page's copy.

type Change =
  | { kind: 'switch'; enabled: boolean }
  | { kind: 'hide'; reviewId: string; reason: HideReason }
  | { kind: 'show'; reviewId: string };

export async function changeWidget(change: Change): Promise<WidgetOwner> {
  const { widget, hidden } = BFF_WIDGET_PATHS;
  const answer =
    change.kind === 'switch'
      ? await request(widget, widgetOwnerSchema, { method: 'PUT', body: { enabled: change.enabled } })
      : change.kind === 'hide'
        ? await request(hiddenPath(hidden, change.reviewId), widgetOwnerSchema, {
            method: 'PUT',
            body: { reason: change.reason },
          })
        : await request(hiddenPath(hidden, change.reviewId), widgetOwnerSchema, { method: 'DELETE' });
  return answer.data;
}

export function useChangeWidget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeWidget,
    onSuccess: (answer) => queryClient.setQueryData(widgetKeys.all, answer),
  });
}
