import type { Scope } from './scopes.ts';
import { settingsObjectSchema } from './settings.ts';
import { z } from './zod.ts';

// The settings extension's calls (docs/settings.md): what they take and what they answer.

/** PUT /api/v1/settings: any of the fields; the ones left out keep their values. */
export const settingsUpdateSchema = /* @__PURE__ */ z.partial(settingsObjectSchema);
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** GET and PUT answer with the settings and what the dashboard's preview needs. */
export const settingsResponseSchema = /* @__PURE__ */ z.object({
  settings: settingsObjectSchema,
  /** The business's name and an example link of real length: what the SMS limit is counted with. */
  preview: z.object({ businessName: z.string(), reviewLink: z.string() }),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** The extension's two calls, at one path: read with `settings:read`, change with `settings:write`. */
export const SETTINGS_ENDPOINTS = {
  read: { method: 'GET', path: '/api/v1/settings', scope: 'settings:read' },
  write: { method: 'PUT', path: '/api/v1/settings', scope: 'settings:write' },
} as const satisfies Record<string, { method: 'GET' | 'PUT'; path: string; scope: Scope }>;
