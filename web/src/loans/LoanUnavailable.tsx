import { Button, NonIdealState } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { isApiError } from '../api/apiError';
import { PageHeader } from '../app/layout/PageHeader';

/**
 * A loan screen whose loan did not load: 'Loan not found' for a 404 (an unknown id, or another
 * user's loan), else the screen's fallback; only a way back, no action on a loan that is not there.
 */
export function LoanUnavailable({
  title,
  error,
  fallback,
}: {
  title: string;
  error: unknown;
  fallback: string;
}) {
  const [, navigate] = useLocation();
  const notFound = isApiError(error) && error.status === 404;
  return (
    <>
      <PageHeader title={title} />
      <NonIdealState
        icon="error"
        title={notFound ? 'Loan not found' : fallback}
        action={<Button text="Back to loans" onClick={() => navigate('/loans')} />}
      />
    </>
  );
}
