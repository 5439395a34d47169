import { Button, NonIdealState } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { isApiError } from '../api/apiError';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate } from '../format';

/**
 * A loan screen whose loan did not load: 'Loan not found' for a 404 (an unknown id, or another
 * user's loan), else the screen's fallback; only a way back, no action on a loan that is not there.
 * In a past view (`asOf`) a 404 is a loan that did not exist yet on that day, and says so.
 */
export function LoanUnavailable({
  title,
  error,
  fallback,
  asOf = null,
}: {
  title: string;
  error: unknown;
  fallback: string;
  asOf?: string | null;
}) {
  const [, navigate] = useLocation();
  const notFound = isApiError(error) && error.status === 404;
  const notYet = notFound && asOf !== null;
  return (
    <>
      <PageHeader title={title} />
      <NonIdealState
        icon={notYet ? 'history' : 'error'}
        title={notYet ? `Not in your loans on ${formatDate(asOf)}` : notFound ? 'Loan not found' : fallback}
        description={
          notYet
            ? 'This loan did not exist yet on that day (or had been deleted by then). Go back to today to see it as it is now.'
            : undefined
        }
        action={<Button text="Back to loans" onClick={() => navigate('/loans')} />}
      />
    </>
  );
}
