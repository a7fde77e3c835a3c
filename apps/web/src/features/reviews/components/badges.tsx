import { isSyncedPlatform, REVIEW_STATUS_LABELS, type ReviewStatus } from '@review-desk/shared/reviews';

// Plain elements styled like Mantine's Badge (light and outline variants, same colour variables,
// so app.css's contrast fixes apply): a page of reviews draws two per row, and Mantine's
// component, resolving its styles on every render, was the costliest part of the first paint.

const STATUS_COLORS: Record<string, string> = { pending: 'yellow', responded: 'green', ignored: 'gray' };

/** Review status in the dashboard's words; a value outside the known three is shown as the service wrote it. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`rd-badge rd-badge--light-${STATUS_COLORS[status] ?? 'gray'}`}>
      {REVIEW_STATUS_LABELS[status as ReviewStatus] ?? status}
    </span>
  );
}

/** A platform as people write it (Google, Facebook, Yelp). */
export function platformLabel(platform: string): string {
  return platform.charAt(0).toUpperCase() + platform.slice(1);
}

/** Where the review came from. Synced reviews (imported from external networks) are marked. */
export function PlatformBadge({ platform }: { platform: string | null | undefined }) {
  if (!platform) return <span className="muted">—</span>;
  if (isSyncedPlatform(platform)) {
    return (
      <span className="rd-badge rd-badge--light-grape" title="Imported from an external review network">
        Synced · {platformLabel(platform)}
      </span>
    );
  }
  return (
    <span className="rd-badge rd-badge--outline-blue" title="Left through a review request link">
      Direct
    </span>
  );
}
