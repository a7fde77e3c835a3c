import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { withMantine } from './mantine.tsx';

function ToastHost() {
  return <Notifications position="top-right" />;
}

export default withMantine(ToastHost);
