import { PageHeader } from '../components/page-header.tsx';
import { paths } from '../config/paths.ts';
import { Link } from '../lib/router.tsx';

export function NotFound() {
  return (
    <div className="stack">
      <PageHeader title="Page not found" />
      <p className="text">There is no page at this address.</p>
      <Link to={paths.home} className="anchor">
        Go to the dashboard
      </Link>
    </div>
  );
}

export function NotAllowed({ page, role }: { page: string; role: string }) {
  return (
    <div className="stack" data-testid="not-allowed">
      <PageHeader title="Not allowed" />
      <p className="text">
        Your role ({role}) does not give access to {page}. If you need it, ask an owner of this Review Desk.
      </p>
      <Link to={paths.home} className="anchor">
        Go to the dashboard
      </Link>
    </div>
  );
}
