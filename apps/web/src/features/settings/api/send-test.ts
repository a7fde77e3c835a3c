import {
  BFF_SETTINGS_TEST_PATH,
  type BffSettingsTestBody,
  settingsTestResultSchema,
} from '@review-desk/shared/settings-test';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';

// POST /bff/settings/test (owners): the words in the editor, once, to the owner's own phone or
// email. Never retried by itself: a second click is a second test, counted in the hour's five.

export async function sendTest(body: BffSettingsTestBody) {
  return (await request(BFF_SETTINGS_TEST_PATH, settingsTestResultSchema, { method: 'POST', body })).data;
}

export function useSendTest() {
  return useMutation({ mutationFn: sendTest });
}
