import { startupRefusal } from '@review-desk/server/test-support/startup';
import { loadConfig } from '../../src/env.ts';

/** The least a BFF needs: an upstream and its key. */
export const BASE_ENV = { UPSTREAM_URL: 'http://127.0.0.1:4000', UPSTREAM_API_KEY: 'rd_live_abc' };

/** The configuration read from the base variables and `env`. */
export const configWith = (env: Record<string, string> = {}) => loadConfig({ ...BASE_ENV, ...env });

/** Why the BFF refuses to start with exactly `env` (the base not added), without the common prefix. */
export function refusalOf(env: Record<string, string>): string {
  return startupRefusal(() => loadConfig(env)).message.replace(/^Invalid configuration: /, '');
}
