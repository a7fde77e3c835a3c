import { Badge } from '@mantine/core';
import { isSyncedPlatform } from '@review-desk/shared/reviews';

const STATUS_COLORS: Record<string, string> = { pending: 'yellow', responded: 'green', ignored: 'gray' };

/** Review status; a value outside the known three is shown as the service wrote it. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" className="badge-text">
      {status}
    </Badge>
  );
}

function platformLabel(platform: string): string {
  return platform.charAt(0).toUpperCase() + platform.slice(1);
}

/** Where the review came from. Synced reviews (seed §2: imported from external networks) are marked. */
export function PlatformBadge({ platform }: { platform: string | null | undefined }) {
  if (!platform) return <span className="muted">—</span>;
  if (isSyncedPlatform(platform)) {
    return (
      <Badge
        color="grape"
        variant="light"
        className="badge-text"
        title="Imported from an external review network"
      >
        Synced · {platformLabel(platform)}
      </Badge>
    );
  }
  return (
    <Badge color="blue" variant="outline" className="badge-text" title="Left through a review request link">
      Direct
    </Badge>
  );
}
