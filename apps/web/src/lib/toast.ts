import type { NotificationData } from '@mantine/notifications';
import { useSyncExternalStore } from 'react';

// Toasts (Mantine notifications) load on first use: they are not needed to show a page, so
// they stay out of the first load. The host mounts when the first toast is asked for; the
// notifications store keeps what was shown before it mounted.

let wanted = false;
const listeners = new Set<() => void>();

export function toast(data: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => {
    if (!wanted) {
      wanted = true;
      for (const listener of listeners) listener();
    }
    notifications.show(data);
  });
}

export function useToastHostWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}
