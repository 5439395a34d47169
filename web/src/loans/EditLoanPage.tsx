import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useReadOnly } from '../audit/auditMode';
import { ReadOnlyNotice } from '../audit/ReadOnlyNotice';
import { toSubmissionErrors } from '../forms';
import { toast } from '../toaster';
import { LoanForm } from './LoanForm';
import { LoanUnavailable } from './LoanUnavailable';
import { LOAN_FIELD_NAMES, type LoanFormValues, toLoanBody, valuesOf } from './loanFormValues';
import { useGetLoanQuery, useUpdateLoanMutation } from './loansApi';

/** /loans/{id}/edit, 'Edit Loan': the same form prefilled (spec section 2). */
export function EditLoanPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const loan = useGetLoanQuery(id);
  const [updateLoan] = useUpdateLoanMutation();
  const readOnly = useReadOnly();
  const initialValues = useMemo(() => (loan.data ? valuesOf(loan.data.loan) : null), [loan.data]);

  const save = async (values: LoanFormValues) => {
    const result = await updateLoan({ id, body: toLoanBody(values), etag: loan.data?.etag ?? null });
    if ('error' in result) return toSubmissionErrors(result.error, LOAN_FIELD_NAMES, 'Failed to update loan');
    toast.success(result.data.message || 'Loan updated successfully');
    navigate(`/loans/${id}`);
    return undefined;
  };

  if (readOnly) return <ReadOnlyNotice title="Edit Loan" back={`/loans/${id}`} />;
  if (loan.isError)
    return <LoanUnavailable title="Edit Loan" error={loan.error} fallback="Failed to load loan data" />;

  return (
    <>
      <PageHeader title="Edit Loan" subtitle={loan.data?.loan.accountNumber} />
      {loan.isLoading ? (
        <Spinner aria-label="Loading loan" />
      ) : !initialValues ? (
        <NonIdealState icon="error" title="Failed to load loan data" />
      ) : (
        <LoanForm mode="edit" initialValues={initialValues} submitText="Update Loan" onSubmit={save} />
      )}
    </>
  );
}
