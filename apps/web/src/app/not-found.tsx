import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';
import { paths } from '../config/paths.ts';

export function NotFound() {
  return (
    <Stack>
      <PageHeader title="Page not found" />
      <Text>There is no page at this address.</Text>
      <Anchor component={Link} to={paths.home}>
        Go to the dashboard
      </Anchor>
    </Stack>
  );
}

export function NotAllowed({ page, role }: { page: string; role: string }) {
  return (
    <Stack data-testid="not-allowed">
      <PageHeader title="Not allowed" />
      <Text>
        Your role ({role}) does not give access to {page}. If you need it, ask an owner of this Review Desk.
      </Text>
      <Anchor component={Link} to={paths.home}>
        Go to the dashboard
      </Anchor>
    </Stack>
  );
}
