import { BFF_WIDGET_PATHS } from '@review-desk/shared/widget';
import { widgetOwnerSchema } from '@review-desk/shared/widget-schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';

// GET /bff/widget (owners): the business's website widget — its snippet, what visitors see now,
// and the reviews hidden for a content reason. Made on the first read. An upstream without the
// widget answers `widget_not_offered`.

export function getWidget(signal?: AbortSignal) {
  return getJson(BFF_WIDGET_PATHS.widget, widgetOwnerSchema, signal);
}

export const widgetKeys = { all: ['widget'] as const };

export function widgetQueryOptions() {
  return queryOptions({ queryKey: widgetKeys.all, queryFn: ({ signal }) => getWidget(signal) });
}

export function useWidget() {
  return useQuery(widgetQueryOptions());
}
