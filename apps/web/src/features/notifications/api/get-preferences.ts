import { ALERT_PATHS, preferencesReplySchema } from '@review-desk/shared/alerts';
import { fixedRead } from '../../../lib/queries.ts';

// GET /bff/notifications/preferences: the user's alert choices, whether the server can send
// email, and whether their role may have the weekly digest.

export const preferencesKeys = { all: ['notification-preferences'] as const };

const preferences = fixedRead(preferencesKeys.all, ALERT_PATHS.preferences, preferencesReplySchema);
export const getPreferences = preferences.get;
export const preferencesQueryOptions = preferences.options;
export const usePreferences = preferences.use;
