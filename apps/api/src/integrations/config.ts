import type * as setting from '@review-desk/server/config';
import { WEBHOOK_VARIABLES, webhooksConfig } from '../webhooks/config.ts';
import { SQUARE_VARIABLES, squareConfig } from './square/config.ts';

// The variables of what the service exchanges with other systems — events out (webhooks) and the
// points of sale (Square) — as one part of the service's table (env.ts).

export const INTEGRATION_VARIABLES = { ...WEBHOOK_VARIABLES, ...SQUARE_VARIABLES };

type Values = setting.ConfigValues<typeof INTEGRATION_VARIABLES> & { NODE_ENV?: string | undefined };

/** `providers`: each delivery variable and its value (webhooksConfig refuses private addresses beside a real one). */
export function integrationsConfig(e: Values, providers: Record<string, string>) {
  return { ...webhooksConfig(e, providers), ...squareConfig(e) };
}
