import { Skeleton } from '../components/loader.tsx';

export function PageSkeleton() {
  return (
    <div className="stack" role="status" aria-busy="true" aria-label="Loading page">
      <Skeleton height={32} width="40%" />
      <Skeleton height={18} width="70%" />
      <Skeleton height={240} />
    </div>
  );
}
