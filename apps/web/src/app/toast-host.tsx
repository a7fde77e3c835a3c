import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Toasts at the bottom of the screen: at the top they covered the header (and its menu) on a phone. */
export default function ToastHost() {
  return <Notifications position="bottom-right" />;
}
