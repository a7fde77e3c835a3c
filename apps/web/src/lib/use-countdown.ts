import { useEffect, useState } from 'react';

/** Seconds left until `startedAt + seconds`, ticking once a second; 0 when there is nothing to wait for. */
export function useCountdown(seconds: number | null | undefined, startedAt: number): number {
  const deadline = seconds ? startedAt + seconds * 1000 : 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!deadline) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline ? Math.max(0, Math.ceil((deadline - now) / 1000)) : 0;
}
