import './stars.css';
import { RATING_MAX } from '@review-desk/shared/limits';

const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

/** Rating as stars, with its text alternative ("4 out of 5 stars") for assistive technology. */
export function Stars({ rating }: { rating: number }) {
  return (
    <span
      className="stars"
      role="img"
      aria-label={`${rating} out of ${RATING_MAX} stars`}
      title={`${rating}/5`}
    >
      {Array.from({ length: RATING_MAX }, (_, i) => (
        <svg
          // biome-ignore lint/suspicious/noArrayIndexKey: five fixed positions
          key={i}
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          className={i < rating ? 'star star--on' : 'star'}
        >
          <path d={STAR} />
        </svg>
      ))}
    </span>
  );
}
