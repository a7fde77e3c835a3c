import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert } from '../components/alert.tsx';
import { Button } from '../components/button.tsx';

type State = { error: unknown };

/**
 * The last line for a page that throws while rendering: the shell and navigation stay usable.
 * A chunk that fails to load (a new version was deployed while the tab stayed open) asks for a reload.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    const chunkFailed =
      error instanceof Error &&
      /dynamically imported module|Importing a module script failed/i.test(error.message);
    return (
      <Alert
        color="red"
        title={chunkFailed ? 'This page could not be loaded' : 'This page failed'}
        role="alert"
      >
        <div className="stack stack--xs">
          <p className="text-sm">
            {chunkFailed
              ? 'Review Desk may have been updated, or the connection dropped. Reload to get the current version.'
              : 'Something unexpected happened while showing this page. Reloading usually helps; nothing you entered elsewhere is lost.'}
          </p>
          <div>
            <Button size="xs" variant="default" onClick={() => window.location.reload()}>
              Reload
            </Button>
          </div>
        </div>
      </Alert>
    );
  }
}
