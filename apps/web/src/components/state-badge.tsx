import './state-badge.css';
import { type HTMLAttributes, useId, useState } from 'react';

export type StateTone = 'green' | 'blue' | 'grape' | 'yellow' | 'orange' | 'red' | 'gray';

/**
 * A state in words (“Scheduled for 08:00 tomorrow”, “Link created”, “Delivered”), its definition
 * one tap away: a tap or a click shows it beneath, a pointer held over it shows it too. Drawn as
 * the review rows' badges are (reviews.css, state-badge.css), but wrapping rather than cutting a
 * long state short.
 */
export function StateBadge({
  label,
  meaning,
  tone,
  ...data
}: { label: string; meaning: string; tone: StateTone } & HTMLAttributes<HTMLSpanElement>) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="state-badge" {...data}>
      <button
        type="button"
        className={`rd-badge rd-badge--light-${tone} state-badge__label`}
        title={meaning}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        {label}
      </button>
      {open && (
        <span id={id} className="state-badge__meaning">
          {meaning}
        </span>
      )}
    </span>
  );
}
