import './inbox.css';
import { waitingFor } from '@review-desk/shared/durations';
import { type KeyboardEvent, useLayoutEffect, useRef } from 'react';
import { Stars } from '../../../components/stars.tsx';
import { MARKS, markAfterPaint } from '../../../lib/perf-marks.ts';
import { type InboxItem, itemKey } from '../inbox.ts';
import { PlatformBadge } from './badges.tsx';

// The inbox's rows, oldest first: how long each has waited, where, the rating, the words, and a
// button to answer it. The list is one stop of the Tab key; inside it ↑/↓ (or j/k) move the
// selection and Enter opens it. Below 720 px the rows become cards (CSS).

export function InboxList({
  items,
  several,
  busy,
  selected,
  onSelect,
  onOpen,
}: {
  items: readonly InboxItem[];
  /** The user has several locations: each row names its own. */
  several: boolean;
  busy: boolean;
  selected: string | null;
  onSelect: (key: string) => void;
  onOpen: (item: InboxItem) => void;
}) {
  const list = useRef<HTMLTableSectionElement>(null);
  const now = Date.now();
  useLayoutEffect(() => {
    markAfterPaint(MARKS.inboxRows, { rows: items.length });
  }, [items]);
  const at = Math.max(
    0,
    items.findIndex((item) => itemKey(item) === selected),
  );

  function onKeyDown(event: KeyboardEvent) {
    if (event.target !== event.currentTarget && !(event.target as HTMLElement).dataset.inboxRow) return;
    const move =
      event.key === 'ArrowDown' || event.key === 'j'
        ? 1
        : event.key === 'ArrowUp' || event.key === 'k'
          ? -1
          : 0;
    if (move !== 0) {
      event.preventDefault();
      const next = items[Math.min(items.length - 1, Math.max(0, at + move))];
      if (next) {
        onSelect(itemKey(next));
        list.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(itemKey(next))}"]`)?.focus();
      }
    } else if (event.key === 'Enter' && items[at]) {
      event.preventDefault();
      onOpen(items[at] as InboxItem);
    }
  }

  return (
    <table
      className="data-table inbox-table card-rows"
      aria-busy={busy}
      aria-label="Reviews waiting for an answer"
    >
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Waiting</span>
          </th>
          {several && <th scope="col">Location</th>}
          <th scope="col">Rating</th>
          <th scope="col">Review</th>
          <th scope="col">Source</th>
          <th scope="col">
            <span className="visually-hidden">Answer</span>
          </th>
        </tr>
      </thead>
      <tbody ref={list} onKeyDown={onKeyDown}>
        {items.map((item, i) => {
          const key = itemKey(item);
          const author = item.review.author_name?.trim() || 'Anonymous';
          return (
            <tr
              key={key}
              data-key={key}
              data-inbox-row="1"
              data-testid="inbox-row"
              data-slug={item.slug}
              aria-selected={i === at}
              tabIndex={i === at ? 0 : -1}
              className={i === at ? 'is-selected' : undefined}
              onFocus={() => onSelect(key)}
            >
              <td className="cell-nowrap">{Number.isFinite(item.at) ? waitingFor(item.at, now) : '—'}</td>
              {several && <td data-label="Location">{item.locationName}</td>}
              <td data-label="Rating">
                <Stars rating={item.review.rating} />
              </td>
              <td data-label="Review" className="cell-text cell-wide">
                <strong>{author}</strong>
                {item.review.text ? <p className="review-excerpt">{item.review.text}</p> : null}
              </td>
              <td data-label="Source">
                <PlatformBadge platform={item.review.platform ?? null} />
              </td>
              <td className="cell-action">
                <button
                  type="button"
                  tabIndex={-1}
                  className="row-action mantine-focus-auto mantine-active"
                  onClick={() => onOpen(item)}
                  aria-label={`Answer the review by ${author}`}
                >
                  Answer
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
