import * as setting from '@review-desk/server/config';

// Where Square is reached (the Customers API, to read a payment's customer): part of the
// service's table (env.ts), read here.

export const SQUARE_VARIABLES = setting.defineConfig({
  SQUARE_API_BASE: {
    type: setting.httpUrl(),
    default: 'https://connect.squareup.com',
    description: 'Where Square’s API is reached (tests and the demo point it at a local stand-in).',
  },
  SQUARE_TIMEOUT_MS: {
    type: setting.wholeNumber(100, 60_000),
    default: '5000',
    description:
      'How long reading a payment’s customer from Square may take; past it the notification is answered 503 and Square sends it again.',
  },
});

export type SquareConfig = { apiBase: string; timeoutMs: number };

export function squareConfig(e: setting.ConfigValues<typeof SQUARE_VARIABLES>): { square: SquareConfig } {
  return {
    square: { apiBase: e.SQUARE_API_BASE.toString().replace(/\/+$/, ''), timeoutMs: e.SQUARE_TIMEOUT_MS },
  };
}
