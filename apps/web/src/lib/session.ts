import type { Me, Permission } from '@review-desk/shared/bff';
import { createContext, useContext } from 'react';

// The signed-in user, provided by the shell once /auth/me has answered. The UI only mirrors
// roles (hiding what a role cannot use); the BFF enforces them.

export const SessionContext = createContext<Me | null>(null);

export function useSession(): Me {
  const me = useContext(SessionContext);
  if (!me) throw new Error('useSession outside a signed-in page');
  return me;
}

export function useCan(permission: Permission): boolean {
  return useSession().permissions.includes(permission);
}
