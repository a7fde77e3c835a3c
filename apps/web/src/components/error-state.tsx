import { describeError } from '../lib/describe-error.ts';
import { useCountdown } from '../lib/use-countdown.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

/** A failed read, told as what happened and what to do, with a Retry-After countdown for 429. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const description = describeError(error);
  const wait = useCountdown(description.retryAfterSeconds, description.receivedAt);
  return (
    <Alert color="red" title={description.title} data-testid="error-state">
      <div className="stack stack--6">
        {description.detail && <p className="text-sm">{description.detail}</p>}
        <p className="text-sm">
          {description.meaning} <strong>{description.action}</strong>
        </p>
        {wait > 0 && (
          <p className="text-sm text-strong">The server asked to wait: you can try again in {wait} s.</p>
        )}
        {onRetry && description.retryable && (
          <div>
            <Button variant="default" size="xs" onClick={onRetry} disabled={wait > 0}>
              {wait > 0 ? `Try again in ${wait} s` : 'Try again'}
            </Button>
          </div>
        )}
      </div>
    </Alert>
  );
}
