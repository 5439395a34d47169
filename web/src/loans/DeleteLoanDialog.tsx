import { Alert } from '@blueprintjs/core';
import { toast } from '../toaster';
import { LOAN_LIST_TOASTS, LOAN_SUCCESS_TOAST_MS } from './loanListToasts';
import { type Loan, useDeleteLoanMutation } from './loansApi';

type Props = { loan: Loan | null; onClose: () => void };

/** Asks before a loan and its EMIs go; open while `loan` is set. */
export function DeleteLoanDialog({ loan, onClose }: Props) {
  const [removeLoan, removal] = useDeleteLoanMutation();

  const confirm = async () => {
    if (!loan) return;
    const result = await removeLoan({ id: loan.id, ...LOAN_LIST_TOASTS });
    onClose();
    if ('data' in result)
      toast.success(result.data?.message || 'Loan deleted successfully', LOAN_SUCCESS_TOAST_MS);
  };

  return (
    <Alert
      isOpen={loan !== null}
      intent="danger"
      icon="trash"
      cancelButtonText="Cancel"
      confirmButtonText="Delete"
      loading={removal.isLoading}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <p>Are you sure you want to delete this loan?</p>
      {loan ? <p className="kosh-muted">{loan.accountNumber}</p> : null}
    </Alert>
  );
}
