import { Skeleton, Stack } from '@mantine/core';

export function PageSkeleton() {
  return (
    <Stack aria-busy="true" aria-label="Loading page">
      <Skeleton height={32} width="40%" />
      <Skeleton height={18} width="70%" />
      <Skeleton height={240} />
    </Stack>
  );
}
