import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useReturnFocus } from '../app/useReturnFocus';
import { formatDate, formatMoney } from '../format';
import { useGetDebitMatchQuery } from '../loans/loansApi';
import { toast } from '../toaster';
import { type Transaction, useDeleteTransactionMutation } from './transactionsApi';

type Props = { transaction: Transaction | null; onClose: () => void };

/** 'Confirm Delete' with the entry's details (spec section 2). */
export function DeleteTransactionDialog({ transaction, onClose }: Props) {
  useReturnFocus();
  const [remove, { isLoading }] = useDeleteTransactionMutation();
  // A debit matched to an EMI: deleting it releases the match (the EMI is no longer paid by it).
  const match = useGetDebitMatchQuery(transaction?.id ?? '', {
    skip: transaction?.transaction_type !== 'D',
  }).data;

  const confirm = async () => {
    if (!transaction) return;
    const result = await remove(transaction.id);
    if ('error' in result) return;
    toast.success('Transaction deleted successfully!');
    onClose();
  };

  return (
    <Dialog isOpen={transaction !== null} onClose={onClose} title="Confirm Delete" icon="trash">
      <DialogBody>
        <Callout intent="warning" icon="warning-sign">
          This action cannot be undone.
        </Callout>
        {match && transaction?.transaction_type === 'D' ? (
          <Callout intent="danger" icon="link" role="alert" style={{ marginTop: 12 }}>
            This debit is matched to EMI {match.paymentNumber} of {match.loan}; deleting it releases the
            match.
          </Callout>
        ) : null}
        <p style={{ marginTop: 12 }}>Are you sure you want to delete this transaction?</p>
        {transaction ? (
          <dl className="kosh-details">
            <dt>Notes</dt>
            <dd>{transaction.notes}</dd>
            <dt>Type</dt>
            <dd>{transaction.transaction_type === 'C' ? 'Credit' : 'Debit'}</dd>
            <dt>Amount</dt>
            <dd>{formatMoney(transaction.amount)}</dd>
            <dt>Date</dt>
            <dd>{formatDate(transaction.transaction_date)}</dd>
          </dl>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={isLoading} />
            <Button intent="danger" text="Delete Transaction" loading={isLoading} onClick={confirm} />
          </>
        }
      />
    </Dialog>
  );
}
