import { Button, Skeleton, Stack } from '@mantine/core';
import type { User } from '@review-desk/shared/bff';
import { lazy, Suspense, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSession } from '../../../lib/session.ts';
import { useUsers } from '../api/get-users.ts';
import { AddUserDialog } from './add-user-dialog.tsx';
import { RemoveUserDialog } from './remove-user-dialog.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { UsersTable } from './users-table.tsx';

// Its code (checkboxes, radios) arrives when an owner opens it: the page's first load stays as it was.
const LocationsDialog = lazy(() => import('./locations-dialog.tsx'));

/** Owners manage who can sign in: the list, and a dialog for adding, a new password, removing. */
function UsersPage({ title }: { title: string }) {
  const me = useSession();
  const users = useUsers();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);
  const [placing, setPlacing] = useState<User | null>(null);

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Who can sign in to this Review Desk, and what their role lets them do."
        actions={<Button onClick={() => setAdding(true)}>Add user</Button>}
      />
      {users.error && <ErrorState error={users.error} onRetry={() => users.refetch()} />}
      {!users.data && !users.error && <Skeleton height={160} aria-label="Loading users" />}
      {users.data && (
        <UsersTable
          users={users.data}
          selfId={me.user.id}
          onResetPassword={setResetting}
          onRemove={setRemoving}
          onLocations={setPlacing}
        />
      )}
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <RemoveUserDialog user={removing} onClose={() => setRemoving(null)} />
      {placing && (
        <Suspense fallback={null}>
          <LocationsDialog user={placing} onClose={() => setPlacing(null)} />
        </Suspense>
      )}
    </Stack>
  );
}

export default withMantine(UsersPage);
