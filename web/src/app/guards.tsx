import { Spinner, SpinnerSize } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Redirect, useSearch } from 'wouter';
import { useAppSelector } from './store';

export function CentredSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="kosh-centred" role="status" aria-live="polite">
      <Spinner size={SpinnerSize.LARGE} aria-label={label} />
    </div>
  );
}

/** Spec section 2: signed-out users go to /login; a spinner while the session loads. */
export function Protected({ children }: { children: ReactNode }) {
  const status = useAppSelector((state) => state.session.status);
  if (status === 'loading') return <CentredSpinner />;
  if (status === 'anonymous') return <Redirect to="/login" replace />;
  return children;
}

/** Spec section 2: a signed-in user on a public-only screen goes to /dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const status = useAppSelector((state) => state.session.status);
  if (status === 'loading') return <CentredSpinner />;
  if (status === 'authenticated') return <Redirect to="/dashboard" replace />;
  return children;
}

/**
 * /verify-email: public-only, except when it carries a mailed link's token. A link confirming a
 * new address for an account is opened by a signed-in user too; the redirect would drop it.
 */
export function PublicOnlyUnlessLink({ children }: { children: ReactNode }) {
  const hasToken = new URLSearchParams(useSearch()).has('token');
  if (hasToken) return children;
  return <PublicOnly>{children}</PublicOnly>;
}
