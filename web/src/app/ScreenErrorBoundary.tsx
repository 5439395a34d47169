import { Button, NonIdealState } from '@blueprintjs/core';
import { Component, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from './layout/PageHeader';

type Props = { children: ReactNode; onDashboard: () => void };

/**
 * A screen's code that did not arrive (network, or a deploy replaced the files): React keeps a
 * failed lazy component failed, so trying again means loading the page afresh.
 */
const isChunkFailure = (error: Error) =>
  /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    error.message,
  );
type State = { error: Error | null };

/**
 * A screen that throws while rendering shows what happened and two ways on, never a blank page:
 * "Try again" renders the screen afresh (reloads it when its code failed to arrive), "Go to
 * dashboard" leaves it. The frame (navigation, user menu) stays usable around it.
 */
class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  tryAgain = () => {
    const { error } = this.state;
    if (error && isChunkFailure(error)) window.location.reload();
    else this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="kosh-screen-error">
        <PageHeader title="This screen stopped working" />
        <NonIdealState
          icon="error"
          description={
            <>
              <p>Something went wrong while showing this screen. Nothing was saved or lost by it.</p>
              <p className="kosh-muted">Details: {error.message}</p>
            </>
          }
          action={
            <div className="kosh-screen-error-actions">
              <Button intent="primary" icon="refresh" text="Try again" onClick={this.tryAgain} />
              <Button icon="dashboard" text="Go to dashboard" onClick={this.props.onDashboard} />
            </div>
          }
        />
      </div>
    );
  }
}

/** One boundary per screen visit: moving to another address starts with a clean slate. */
export function ScreenErrorBoundary({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  return (
    <ErrorBoundary key={location} onDashboard={() => navigate('/dashboard')}>
      {children}
    </ErrorBoundary>
  );
}
