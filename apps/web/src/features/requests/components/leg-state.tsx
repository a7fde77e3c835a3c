import '../../../components/field-list.css';
import './requests.css';
import { Text } from '@mantine/core';
import { describeSendTime } from '@review-desk/shared/quiet-hours';
import { LEG_STATE_WORDS, LEG_STATES, type LegState, type RequestRecord } from '@review-desk/shared/requests';
import { StateBadge, type StateTone } from '../../../components/state-badge.tsx';

// Each message of a request, in the words the dashboard uses for its state (shared
// LEG_STATE_WORDS), with the definition a tap away and in the legend, and the carrier's reason
// beneath a message that did not get through.

const COLOR: Record<LegState, StateTone> = {
  scheduled: 'grape',
  queued: 'blue',
  sent: 'blue',
  delivered: 'green',
  undelivered: 'red',
  failed: 'red',
  unknown: 'yellow',
};

const CHANNEL_WORD = { sms: 'SMS', email: 'Email' } as const;
const REMINDER_WORD = { sms: 'Reminder SMS', email: 'Reminder email' } as const;

/** A leg's name: its channel, or the one automatic reminder's (a leg without a kind is the send's). */
function legName(leg: RequestRecord['legs'][number]): string {
  return (leg.kind === 'reminder' ? REMINDER_WORD : CHANNEL_WORD)[leg.channel];
}

export function LegStates({ record, now }: { record: RequestRecord; now: number }) {
  if (record.legs.length === 0) return <span className="muted">No message (a link)</span>;
  return (
    <ul className="leg-list">
      {record.legs.map((leg) => {
        const words = LEG_STATE_WORDS[leg.state];
        const when =
          leg.state === 'scheduled' && record.scheduledFor
            ? ` for ${describeSendTime(Date.parse(record.scheduledFor), now, localZone())}`
            : '';
        return (
          <li
            key={`${leg.kind ?? 'request'}-${leg.channel}`}
            data-testid="leg"
            data-channel={leg.channel}
            data-kind={leg.kind ?? 'request'}
            data-state={leg.state}
          >
            <StateBadge
              label={`${legName(leg)}: ${words.label}${when}`}
              meaning={words.meaning}
              tone={COLOR[leg.state]}
            />
            {leg.error && (
              <Text size="xs" c="dimmed" className="outcome-note">
                {leg.error}
              </Text>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The definitions, in the order a message goes through its states. */
export function LegStateLegend() {
  return (
    <details className="legend">
      <summary>What the delivery states mean</summary>
      <dl className="field-list">
        {LEG_STATES.map((state) => (
          <div className="field-list__row" key={state}>
            <dt>
              <span className={`rd-badge rd-badge--light-${COLOR[state]}`}>
                {LEG_STATE_WORDS[state].label}
              </span>
            </dt>
            <dd>{LEG_STATE_WORDS[state].meaning}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The time zone the dashboard shows times in: the browser's. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
