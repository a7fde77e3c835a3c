import { SEND_OUTCOME_MEANINGS, type SendOutcome } from '@review-desk/shared/bff';
import { StateBadge, type StateTone } from '../../../components/state-badge.tsx';

// What the service answered this dashboard for a send (its journal's outcome), in words. Accepted
// is not delivered: a message's own delivery state is LegStates'.

const OUTCOME_STYLE: Record<SendOutcome, { tone: StateTone; label: string }> = {
  in_flight: { tone: 'blue', label: 'Sending' },
  sent: { tone: 'blue', label: 'Accepted for delivery' },
  warning: { tone: 'orange', label: 'Accepted, with a problem' },
  failed: { tone: 'red', label: 'Not sent' },
  unknown: { tone: 'yellow', label: 'Outcome unknown' },
};

export function OutcomeBadge({ outcome }: { outcome: SendOutcome }) {
  const style = OUTCOME_STYLE[outcome];
  return (
    <StateBadge
      label={style.label}
      meaning={SEND_OUTCOME_MEANINGS[outcome]}
      tone={style.tone}
      data-outcome={outcome}
    />
  );
}

export const OUTCOME_LEGEND = (Object.keys(OUTCOME_STYLE) as SendOutcome[]).map((outcome) => ({
  outcome,
  label: OUTCOME_STYLE[outcome].label,
  meaning: SEND_OUTCOME_MEANINGS[outcome],
}));
