import type { Permission } from '@review-desk/shared/bff';
import type { ReactNode } from 'react';
import { useSession } from '../lib/session.ts';
import { NotAllowed } from './not-found.tsx';

/** Mirrors the BFF's role rules in the UI: a page the role cannot use says so instead of loading. */
export function RequirePermission({
  permission,
  page,
  children,
}: {
  permission: Permission;
  page: string;
  children: ReactNode;
}) {
  const me = useSession();
  if (!me.permissions.includes(permission)) return <NotAllowed page={page} role={me.user.role} />;
  return children;
}
