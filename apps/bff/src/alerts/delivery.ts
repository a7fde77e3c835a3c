import { reviewDetailPath } from '@review-desk/shared/alerts';
import type { Logger } from 'pino';
import type { UserStore } from '../auth/users.ts';
import type { RoutedLocation } from '../locations/directory.ts';
import { renderAlertEmail } from './email.ts';
import type { Mailer } from './mailer.ts';
import type { AlertStore, RaisedAlert } from './store.ts';

// The emails of the alerts a poll raised, after its transaction committed: each one's outcome
// (sent, or failed and why) written on the alert, so none is sent twice.

export type AlertDeliveryDeps = {
  store: () => Promise<AlertStore>;
  users: Pick<UserStore, 'get'>;
  mailer: Mailer;
  logger: Pick<Logger, 'warn'>;
  /** The dashboard's origin, for the link to the review. */
  origin: () => string;
};

export function createAlertDelivery({ store, users, mailer, logger, origin }: AlertDeliveryDeps) {
  /** Emails the raised alerts that go by email; resolves with how many the mail server accepted. */
  return async function deliver(raised: readonly RaisedAlert[], location: RoutedLocation): Promise<number> {
    const alerts = await store();
    let emailed = 0;
    for (const alert of raised) {
      if (alert.channel !== 'email' || !mailer.configured) continue;
      const user = await users.get(alert.userId);
      if (!user) {
        await alerts.setEmailState(alert.alertId, 'failed', 'The user no longer exists');
        continue;
      }
      const email = renderAlertEmail({
        rating: alert.rating,
        author: alert.author,
        excerpt: alert.excerpt,
        locationName: location.name,
        link: `${origin()}${reviewDetailPath(location.slug, alert.id)}`,
      });
      try {
        await mailer.send({ to: user.email, ...email });
        await alerts.setEmailState(alert.alertId, 'sent');
        emailed++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await alerts.setEmailState(alert.alertId, 'failed', message.slice(0, 500));
        logger.warn({ alert: alert.alertId, err: message }, 'alert email refused by the mail server');
      }
    }
    return emailed;
  };
}
