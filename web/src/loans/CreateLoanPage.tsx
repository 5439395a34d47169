import { useLocation } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useReadOnly } from '../audit/auditMode';
import { ReadOnlyNotice } from '../audit/ReadOnlyNotice';
import { toSubmissionErrors } from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import { LoanForm } from './LoanForm';
import { LOAN_FIELD_NAMES, type LoanFormValues, NEW_LOAN, toLoanBody } from './loanFormValues';
import { useCreateLoanMutation } from './loansApi';

/** /loans/create, 'Create New Loan' (spec section 2). */
export function CreateLoanPage() {
  const [, navigate] = useLocation();
  const [createLoan] = useCreateLoanMutation();
  const submission = useSubmissionKey();
  const readOnly = useReadOnly();

  const save = async (values: LoanFormValues) => {
    const body = toLoanBody(values);
    const result = await createLoan({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) return toSubmissionErrors(result.error, LOAN_FIELD_NAMES, 'Failed to create loan');
    submission.succeeded();
    toast.success(result.data.message || 'Loan created successfully');
    const id = result.data.data?.loan?.id;
    navigate(id ? `/loans/${id}` : '/loans');
    return undefined;
  };

  if (readOnly) return <ReadOnlyNotice title="Create New Loan" back="/loans" />;

  return (
    <>
      <PageHeader title="Create New Loan" subtitle="The EMI preview updates as you type" />
      <LoanForm mode="create" initialValues={NEW_LOAN} submitText="Create Loan" onSubmit={save} />
    </>
  );
}
