import '@mantine/core/styles/Badge.layer.css';
import { Badge, Button, Group } from '@mantine/core';
import type { User } from '@review-desk/shared/bff';
import { DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { RoleSelect } from './role-select.tsx';

/** Who can sign in: one row a user, with the role in place and the actions on them. */
export function UsersTable({
  users,
  selfId,
  onResetPassword,
  onRemove,
  onLocations,
}: {
  users: User[];
  selfId: string;
  onResetPassword: (user: User) => void;
  onRemove: (user: User) => void;
  onLocations: (user: User) => void;
}) {
  return (
    <DataTable
      className="users-table"
      columns={['Email', 'Role', 'Added', 'Last sign-in', { hidden: 'Actions' }]}
    >
      {users.map((user) => {
        const self = user.id === selfId;
        return (
          <tr key={user.id} data-testid="user-row">
            <td data-label="Email" className="cell-break cell-wide">
              {user.email}{' '}
              {self && (
                <Badge size="xs" variant="outline">
                  you
                </Badge>
              )}
            </td>
            <td data-label="Role">
              <RoleSelect user={user} self={self} />
            </td>
            <td data-label="Added">{formatDateTime(user.createdAt)}</td>
            <td data-label="Last sign-in">
              {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : <span className="muted">Never</span>}
            </td>
            <td className="cell-action cell-wide">
              <Group gap={4} wrap="nowrap">
                {/* Owners have every location (docs/locations.md): nothing to choose. */}
                {user.role !== 'owner' && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => onLocations(user)}
                    aria-label={`Locations of ${user.email}`}
                  >
                    Locations
                  </Button>
                )}
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => onResetPassword(user)}
                  aria-label={`Reset password of ${user.email}`}
                >
                  Reset password
                </Button>
                {!self && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    onClick={() => onRemove(user)}
                    aria-label={`Remove ${user.email}`}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
