import '@mantine/core/styles/Badge.layer.css';
import { Badge } from '@mantine/core';
import { SEND_OUTCOME_MEANINGS, type SendOutcome } from '@review-desk/shared/bff';

const OUTCOME_STYLE: Record<SendOutcome, { color: string; label: string }> = {
  in_flight: { color: 'blue', label: 'Sending' },
  sent: { color: 'green', label: 'Sent' },
  warning: { color: 'orange', label: 'Warning' },
  failed: { color: 'red', label: 'Failed' },
  unknown: { color: 'yellow', label: 'Unknown' },
};

export function OutcomeBadge({ outcome }: { outcome: SendOutcome }) {
  const style = OUTCOME_STYLE[outcome];
  return (
    <Badge
      color={style.color}
      variant="light"
      title={SEND_OUTCOME_MEANINGS[outcome]}
      className="badge-text"
      data-outcome={outcome}
    >
      {style.label}
    </Badge>
  );
}

export const OUTCOME_LEGEND = (Object.keys(OUTCOME_STYLE) as SendOutcome[]).map((outcome) => ({
  outcome,
  label: OUTCOME_STYLE[outcome].label,
  meaning: SEND_OUTCOME_MEANINGS[outcome],
}));
