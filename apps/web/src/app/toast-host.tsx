import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { withMantine } from './mantine.tsx';

/** Toasts at the bottom of the screen: at the top they covered the header (and its menu) on a phone. */
function ToastHost() {
  return <Notifications position="bottom-right" />;
}

export default withMantine(ToastHost);
