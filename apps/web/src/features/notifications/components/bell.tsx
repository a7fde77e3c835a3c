import '../../../components/overlays.css';
import '@mantine/core/styles/Badge.layer.css';
import './bell.css';
import { Badge, Button, Group, Popover, Text } from '@mantine/core';
import { type Alert, reviewDetailPath } from '@review-desk/shared/alerts';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { Stars } from '../../../components/stars.tsx';
import { paths } from '../../../config/paths.ts';
import { formatAgo } from '../../../lib/format.ts';
import { CURRENT_LOCATION } from '../../../lib/location.ts';
import { useLocations } from '../../../lib/location-list.ts';
import { Link } from '../../../lib/router.tsx';
import { useAlerts } from '../api/get-alerts.ts';
import { preferencesQueryOptions } from '../api/get-preferences.ts';
import { useMarkAlertsRead } from '../api/mark-alerts-read.ts';
import { useUpdatePreferences } from '../api/update-preferences.ts';

// The bell in the header: the unread count, and on opening the newest low-rating alerts, each a
// link to its review's detail. Opening it marks what it shows read.

function BellIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

function AlertLink({
  alert,
  here,
  isNew,
  onGo,
}: {
  alert: Alert;
  here: string | null;
  isNew: boolean;
  onGo: () => void;
}) {
  const body = (
    <>
      <Group gap={6} wrap="nowrap">
        <Stars rating={alert.rating} />
        <Text size="sm" fw={600} truncate>
          {alert.author ?? 'Anonymous'}
        </Text>
        {isNew && (
          <Badge size="xs" color="red" variant="light">
            New
          </Badge>
        )}
      </Group>
      {alert.excerpt && <span className="alert-item__excerpt">{alert.excerpt}</span>}
      <span className="alert-item__meta">
        {alert.locationName} · {formatAgo(alert.createdAt)}
      </span>
    </>
  );
  // In this page load's location the router opens it; another location is a full load.
  if (alert.location === here)
    return (
      <Link to={`${paths.reviews}?review=${encodeURIComponent(alert.reviewId)}`} onClick={onGo}>
        {body}
      </Link>
    );
  return <a href={reviewDetailPath(alert.location, alert.reviewId)}>{body}</a>;
}

/** Alerts are off for this user: said plainly, with the one click that turns them on. */
function AlertsOff() {
  const queryClient = useQueryClient();
  const update = useUpdatePreferences();
  const turnOn = async () => {
    const reply = await queryClient.fetchQuery(preferencesQueryOptions());
    update.mutate({ ...reply.preferences, enabled: true });
  };
  return (
    <div className="alerts-off" data-testid="alerts-off">
      <Text size="sm" mb={6}>
        Your alerts are off: a low rating does not show here.
      </Text>
      <Button size="xs" onClick={() => void turnOn()} loading={update.isPending}>
        Turn alerts on
      </Button>
      {update.error && (
        <Text size="xs" c="var(--mantine-color-error)" mt={4} role="alert">
          {update.error.message}
        </Text>
      )}
    </div>
  );
}

function Bell() {
  const alerts = useAlerts();
  const markRead = useMarkAlertsRead();
  const locations = useLocations();
  const [opened, setOpened] = useState(false);
  const headingId = useId();
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const list = alerts.data?.alerts ?? [];
  const unread = alerts.data?.unread ?? 0;
  const here = CURRENT_LOCATION ?? locations.data?.locations[0]?.slug ?? null;

  const open = () => {
    const ids = list.filter((a) => !a.read).map((a) => a.id);
    setFresh(new Set(ids));
    if (ids.length > 0) markRead.mutate({ ids });
    setOpened(true);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      hideDetached={false}
      position="bottom-end"
      width={360}
      shadow="md"
      withinPortal
    >
      <Popover.Target>
        <button
          type="button"
          className="bell"
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
          aria-expanded={opened}
          onClick={() => (opened ? setOpened(false) : open())}
        >
          <BellIcon />
          {unread > 0 && (
            <span className="bell__count" data-testid="bell-count" aria-hidden="true">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </button>
      </Popover.Target>
      <Popover.Dropdown aria-labelledby={headingId}>
        <Text fw={600} size="sm" mb={6} id={headingId}>
          Low ratings
        </Text>
        {alerts.data?.enabled === false ? (
          <AlertsOff />
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed" mb={6}>
            No low ratings ({alerts.data?.threshold ?? 2}★ or lower) since your alerts were turned on. A new
            one shows here within minutes.
          </Text>
        ) : (
          <ul className="alert-list">
            {list.map((alert) => (
              <li key={alert.id} className="alert-item">
                <AlertLink
                  alert={alert}
                  here={here}
                  isNew={fresh.has(alert.id)}
                  onGo={() => setOpened(false)}
                />
              </li>
            ))}
          </ul>
        )}
        <Text size="sm" mt={6}>
          <Link to={paths.notifications} onClick={() => setOpened(false)}>
            Notification settings
          </Link>
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

export default withMantine(Bell);
