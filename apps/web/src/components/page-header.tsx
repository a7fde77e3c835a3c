import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title.ts';

/** The page's h1 (focused after client-side navigation, see shell) and an optional lead line. */
export function PageHeader({
  title,
  lead,
  actions,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <header className="page-header">
      <div className="page-header__text">
        <h1 id="page-title" tabIndex={-1} className="page-title">
          {title}
        </h1>
        {lead && <p className="page-header__lead">{lead}</p>}
      </div>
      {actions && <div className="page-header__actions">{actions}</div>}
    </header>
  );
}
