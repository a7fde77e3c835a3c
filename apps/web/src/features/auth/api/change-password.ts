import { BFF_PATHS, type ChangeOwnPassword, meSchema } from '@review-desk/shared/bff';
import { useMutation } from '@tanstack/react-query';
import { sendJson } from '../../../lib/changes.ts';

// POST /auth/password: the signed-in user's own password, the current one required. The BFF ends
// the user's other sessions and gives this browser a fresh one (docs/bff.md).

export function changePassword(body: ChangeOwnPassword) {
  return sendJson('POST', BFF_PATHS.password, meSchema, body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
